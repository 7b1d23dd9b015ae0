// Command k8s-server-oracle runs the real k8s.io/apiextensions-apiserver standalone on 127.0.0.1, backed by a
// real etcd, so that crdkit serve can be compared with it over HTTP (see README.md).
//
// The stock apiextensions-apiserver command cannot run alone: it delegates authentication and authorization
// to a kube-apiserver, builds a core-API informer factory from one, and its Complete() switches /apis
// discovery off (the aggregator serves it in a cluster). This main assembles the server configuration itself:
// anonymous authentication, no authorization, an informer factory over an empty fake clientset, no admission
// plugins, no priority and fairness, OpenAPI v2 and v3 on, discovery switched back on, and /api answered with
// an empty APIVersions list (there is no core API).
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"

	noopoteltrace "go.opentelemetry.io/otel/trace/noop"

	extensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	apiserverconfig "k8s.io/apiserver/pkg/apis/apiserver"
	"k8s.io/apiserver/pkg/authentication/request/anonymous"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapiserver "k8s.io/apiserver/pkg/server"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/apiserver/pkg/util/openapi"
	"k8s.io/apiserver/pkg/util/webhook"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
)

func main() {
	etcdServers := flag.String("etcd-servers", "http://127.0.0.1:2379", "comma-separated etcd URLs")
	etcdPrefix := flag.String("etcd-prefix", "/registry", "etcd key prefix")
	mediaType := flag.String("storage-media-type", "application/json", "storage media type of custom resources and CRDs")
	port := flag.Int("secure-port", 0, "HTTPS port on 127.0.0.1 (0: a free one)")
	certDir := flag.String("cert-dir", "", "directory for the self-signed serving certificate (default: a temp dir)")
	gates := flag.String("feature-gates", "", "feature gates as kube-apiserver's --feature-gates (e.g. UnauthenticatedHTTP2DOSMitigation=false: the serve benches' HTTP/2 clients stand for authenticated ones)")
	flag.Parse()
	if *gates != "" {
		if err := utilfeature.DefaultMutableFeatureGate.Set(*gates); err != nil {
			fmt.Fprintf(os.Stderr, "k8s-server-oracle: --feature-gates: %v\n", err)
			os.Exit(2)
		}
	}

	if err := run(*etcdServers, *etcdPrefix, *mediaType, *port, *certDir); err != nil {
		fmt.Fprintf(os.Stderr, "k8s-server-oracle: %v\n", err)
		os.Exit(1)
	}
}

func run(etcdServers, etcdPrefix, mediaType string, port int, certDir string) error {
	if certDir == "" {
		d, err := os.MkdirTemp("", "k8s-server-oracle")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		certDir = d
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}

	o := options.NewCustomResourceDefinitionsServerOptions(os.Stdout, os.Stderr)
	o.RecommendedOptions.Etcd.StorageConfig.Transport.ServerList = strings.Split(etcdServers, ",")
	o.RecommendedOptions.Etcd.StorageConfig.Prefix = etcdPrefix
	o.RecommendedOptions.Etcd.DefaultStorageMediaType = mediaType
	o.RecommendedOptions.SecureServing.Listener = ln
	o.RecommendedOptions.SecureServing.BindPort = ln.Addr().(*net.TCPAddr).Port
	o.RecommendedOptions.SecureServing.ServerCert.CertDirectory = certDir
	o.RecommendedOptions.SecureServing.ExternalAddress = net.ParseIP("127.0.0.1")
	// Nothing to delegate to: no kube-apiserver behind this server.
	o.RecommendedOptions.Authentication = nil
	o.RecommendedOptions.Authorization = nil
	o.RecommendedOptions.CoreAPI = nil
	o.RecommendedOptions.Admission = nil
	o.RecommendedOptions.Features.EnablePriorityAndFairness = false
	o.APIEnablement.RuntimeConfig.Set("api/all=true")
	if err := o.Complete(); err != nil {
		return err
	}
	if err := o.Validate(); err != nil {
		return err
	}
	if err := o.RecommendedOptions.SecureServing.MaybeDefaultWithSelfSignedCerts("localhost", nil, []net.IP{net.ParseIP("127.0.0.1")}); err != nil {
		return err
	}

	serverConfig := genericapiserver.NewRecommendedConfig(extensionsapiserver.Codecs)
	// An informer factory over an empty clientset: the CRD server's service resolver needs one.
	serverConfig.SharedInformerFactory = informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	if err := o.ServerRunOptions.ApplyTo(&serverConfig.Config); err != nil {
		return err
	}
	if err := o.RecommendedOptions.ApplyTo(serverConfig); err != nil {
		return err
	}
	if err := o.APIEnablement.ApplyTo(&serverConfig.Config, extensionsapiserver.DefaultAPIResourceConfigSource(), extensionsapiserver.Scheme); err != nil {
		return err
	}
	serverConfig.Authentication.Authenticator = anonymous.NewAuthenticator([]apiserverconfig.AnonymousAuthCondition{})
	defs := openapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions)
	serverConfig.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(defs, openapinamer.NewDefinitionNamer(extensionsapiserver.Scheme, scheme.Scheme))
	serverConfig.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(defs, openapinamer.NewDefinitionNamer(extensionsapiserver.Scheme, scheme.Scheme))
	buildChain := serverConfig.BuildHandlerChainFunc
	serverConfig.BuildHandlerChainFunc = func(h http.Handler, c *genericapiserver.Config) http.Handler {
		return withEmptyCoreAPI(buildChain(h, c))
	}

	config := &extensionsapiserver.Config{
		GenericConfig: serverConfig,
		ExtraConfig: extensionsapiserver.ExtraConfig{
			CRDRESTOptionsGetter: options.NewCRDRESTOptionsGetter(*o.RecommendedOptions.Etcd, serverConfig.ResourceTransformers, serverConfig.StorageObjectCountTracker),
			ServiceResolver:      noServices{},
			AuthResolverWrapper:  webhook.NewDefaultAuthenticationInfoResolverWrapper(nil, nil, serverConfig.LoopbackClientConfig, noopoteltrace.NewTracerProvider()),
		},
	}
	completed := config.Complete()
	// The aggregator serves /apis in a cluster; standalone, this server must.
	completed.GenericConfig.EnableDiscovery = true
	server, err := completed.New(genericapiserver.NewEmptyDelegate())
	if err != nil {
		return err
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer cancel()
	fmt.Printf("k8s-server-oracle: listening on https://127.0.0.1:%d\n", o.RecommendedOptions.SecureServing.BindPort)
	return server.GenericAPIServer.PrepareRun().RunWithContext(ctx)
}

// noServices resolves no service: conversion webhooks must use clientConfig.url.
type noServices struct{}

func (noServices) ResolveEndpoint(namespace, name string, port int32) (*url.URL, error) {
	return nil, fmt.Errorf("services are not available in the standalone server oracle (%s/%s:%d)", namespace, name, port)
}

// withEmptyCoreAPI answers /api (the legacy core group, absent here) with an APIVersions list without
// versions, so that clients' discovery proceeds.
func withEmptyCoreAPI(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api" || r.URL.Path == "/api/" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"kind":"APIVersions","versions":[],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1"}]}` + "\n"))
			return
		}
		h.ServeHTTP(w, r)
	})
}
