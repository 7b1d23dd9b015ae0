/**
 * The gRPC channel to the etcd members: its target (from kube-apiserver's `--etcd-servers` URLs), credentials
 * (TLS with `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`) and options. EtcdClient checks them on its
 * own thread (bad URLs and certificates fail its constructor); its gRPC thread opens the channel.
 */
import * as grpc from "@grpc/grpc-js";

/** The gRPC target of the members: `ipv4:`/`ipv6:` address lists (pick-first failover) or a DNS name. */
export function targetOf(servers: string[]): { target: string; secure: boolean } {
  const urls = servers.map((s) => {
    try {
      return new URL(s.includes("://") ? s : `http://${s}`);
    } catch {
      throw new Error(`invalid etcd server URL ${JSON.stringify(s)}`);
    }
  });
  if (urls.length === 0) throw new Error("no etcd servers given");
  const secure = urls[0]!.protocol === "https:";
  for (const u of urls) {
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error(`invalid etcd server URL ${JSON.stringify(u.href)}: want http or https`);
    if ((u.protocol === "https:") !== secure) throw new Error("etcd servers must all use http or all https");
  }
  const hostPort = (u: URL) => `${u.hostname}:${u.port || "2379"}`;
  if (urls.every((u) => /^\d+\.\d+\.\d+\.\d+$/.test(u.hostname))) return { target: `ipv4:${urls.map(hostPort).join(",")}`, secure };
  if (urls.every((u) => u.hostname.startsWith("["))) return { target: `ipv6:${urls.map(hostPort).join(",")}`, secure };
  return { target: `dns:${hostPort(urls[0]!)}`, secure };
}

/** The PEM contents of the TLS files (null: not given). */
export interface TlsFiles {
  ca: Uint8Array | null;
  key: Uint8Array | null;
  cert: Uint8Array | null;
}

/** The channel's credentials (throws on a certificate or key that TLS cannot load). */
export function credentialsOf(secure: boolean, tls: TlsFiles): grpc.ChannelCredentials {
  const buf = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  return secure ? grpc.credentials.createSsl(buf(tls.ca), buf(tls.key), buf(tls.cert)) : grpc.credentials.createInsecure();
}

/** One gRPC client (one channel) for the KV, Maintenance and Watch services. */
export function openChannel(servers: string[], tls: TlsFiles): grpc.Client {
  const { target, secure } = targetOf(servers);
  return new grpc.Client(target, credentialsOf(secure, tls), {
    "grpc.max_receive_message_length": -1,
    "grpc.max_send_message_length": 2 * 1024 * 1024,
    "grpc.keepalive_time_ms": 30_000,
    "grpc.keepalive_timeout_ms": 10_000,
    "grpc.initial_reconnect_backoff_ms": 100,
    "grpc.max_reconnect_backoff_ms": 1000,
    "grpc.enable_retries": 0,
    "grpc.enable_channelz": 0,
  });
}
