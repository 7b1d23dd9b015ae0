// Command go-load is the serve benches' Go load generator: it sends requests the way client-go does (Go's
// net/http transport, HTTP/2 over one TLS connection by ALPN, or HTTP/1.1 over a pool of connections) with a
// fixed number in flight, and prints one JSON line: requests/s, latency percentiles, the HTTP version seen,
// connections opened and its own CPU time. etcd-vs-k8s.bench.ts (`--client=go-h2`, `--client=go-h1`) runs it
// for each phase against every server alike.
//
//	go-load -url https://127.0.0.1:PORT/path/%NAME% -method GET -n 10000 -c 16 -prefix ct -mod 2000 [-h1]
//	        [-body '{"metadata":{"name":"%NAME%"}}'] [-want 200]
//
// %NAME% in the URL and the body is replaced by PREFIX-I for request I (I modulo MOD when MOD > 0).
//
// Installing CRDs one by one, each waited for until Established (as `kubectl wait` would; etcd-vs-k8s's
// `--crds=N` with a Go client): %N% in the body and in the GET URL is the CRD's number (1..N); the output has the
// seconds, and with -server-pid the server's CPU ms per CRD of each tenth (the process and its descendants).
//
//	go-load -install N -url https://.../customresourcedefinitions -get-url https://.../customresourcedefinitions/things%N%.bench%N%.example.com
//	        -body '{...%N%...}' [-server-pid PID] [-h1]
package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type installResult struct {
	Secs     float64   `json:"secs"`
	CPUMs    float64   `json:"cpuMs"`
	TenthsMs []float64 `json:"tenthsMs"`
	Error    string    `json:"error,omitempty"`
}

// treeCPUMs is the CPU ms (user + system) of pid and its descendants so far (Linux /proc; 0 elsewhere).
func treeCPUMs(pid int) float64 {
	if pid <= 0 {
		return 0
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	type st struct {
		ppid int
		ms   float64
	}
	stats := map[int]st{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		text := string(b)
		f := strings.Fields(text[strings.LastIndex(text, ") ")+2:])
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		ut, _ := strconv.ParseFloat(f[11], 64)
		stt, _ := strconv.ParseFloat(f[12], 64)
		stats[p] = st{ppid, (ut + stt) * 10}
	}
	total := 0.0
	todo := []int{pid}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		total += stats[p].ms
		for c, s := range stats {
			if s.ppid == p {
				todo = append(todo, c)
			}
		}
	}
	return total
}

// established reports whether a CRD's JSON has the condition Established=True.
func established(body []byte) bool {
	var crd struct {
		Status struct {
			Conditions []struct {
				Type   string `json:"type"`
				Status string `json:"status"`
			} `json:"conditions"`
		} `json:"status"`
	}
	if json.Unmarshal(body, &crd) != nil {
		return false
	}
	for _, c := range crd.Status.Conditions {
		if c.Type == "Established" && c.Status == "True" {
			return true
		}
	}
	return false
}

// install creates n CRDs one by one, each followed by GETs until it is Established.
func install(client *http.Client, n int, url, getURL, body string, serverPid int) installResult {
	tenth := n / 10
	if tenth < 1 {
		tenth = 1
	}
	var r installResult
	cpu0 := cpuMs()
	from := treeCPUMs(serverPid)
	t0 := time.Now()
	do := func(req *http.Request) (int, []byte, error) {
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, b, err
	}
	for i := 1; i <= n; i++ {
		num := strconv.Itoa(i)
		req, _ := http.NewRequest("POST", url, strings.NewReader(strings.ReplaceAll(body, "%N%", num)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		code, text, err := do(req)
		if err != nil || code != 201 {
			r.Error = fmt.Sprintf("CRD %d: HTTP %d %v %.300s", i, code, err, text)
			return r
		}
		for tries := 0; ; tries++ {
			get, _ := http.NewRequest("GET", strings.ReplaceAll(getURL, "%N%", num), nil)
			get.Header.Set("Accept", "application/json")
			code, text, err := do(get)
			if err == nil && code == 200 && established(text) {
				break
			}
			if tries > 500 {
				r.Error = fmt.Sprintf("CRD %d not Established", i)
				return r
			}
			time.Sleep(5 * time.Millisecond)
		}
		if serverPid > 0 && i%tenth == 0 {
			now := treeCPUMs(serverPid)
			r.TenthsMs = append(r.TenthsMs, (now-from)/float64(tenth))
			from = now
		}
	}
	r.Secs = time.Since(t0).Seconds()
	r.CPUMs = cpuMs() - cpu0
	return r
}

type result struct {
	PerSec   float64 `json:"perSec"`
	P50      float64 `json:"p50"`
	P99      float64 `json:"p99"`
	Proto    string  `json:"proto"`
	Opened   int64   `json:"opened"`
	CPUMs    float64 `json:"cpuMs"`
	Failures int64   `json:"failures"`
	Error    string  `json:"error,omitempty"`
}

func cpuMs() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func main() {
	url := flag.String("url", "", "request URL, %NAME% replaced")
	method := flag.String("method", "GET", "HTTP method")
	body := flag.String("body", "", "request body (JSON), %NAME% replaced")
	n := flag.Int("n", 1000, "requests")
	c := flag.Int("c", 16, "requests in flight")
	prefix := flag.String("prefix", "ct", "name prefix")
	mod := flag.Int("mod", 0, "names cycle through this many (0: no cycle)")
	want := flag.Int("want", 200, "expected status")
	h1 := flag.Bool("h1", false, "HTTP/1.1 (a pool of C connections) instead of HTTP/2 (one connection)")
	installN := flag.Int("install", 0, "install this many CRDs one by one (see the command's doc)")
	getURL := flag.String("get-url", "", "with -install: the CRD's URL, %N% replaced")
	serverPid := flag.Int("server-pid", 0, "with -install: the server process, for its CPU per tenth")
	flag.Parse()

	var opened atomic.Int64
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true},
		ForceAttemptHTTP2:   !*h1,
		MaxIdleConnsPerHost: *c,
		MaxConnsPerHost:     *c,
		IdleConnTimeout:     90 * time.Second,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := dialer.DialContext(ctx, network, addr)
			if err == nil {
				opened.Add(1)
			}
			return conn, err
		},
	}
	if *h1 {
		// An empty TLSNextProto map keeps the transport on HTTP/1.1.
		tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	}
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}

	if *installN > 0 {
		r := install(client, *installN, *url, *getURL, *body, *serverPid)
		out, _ := json.Marshal(r)
		fmt.Println(string(out))
		if r.Error != "" {
			os.Exit(1)
		}
		return
	}

	name := func(i int) string {
		if *mod > 0 {
			i %= *mod
		}
		return *prefix + "-" + strconv.Itoa(i)
	}
	// One request first, so that HTTP/2 has its one connection before the workers start (otherwise each
	// worker dials its own while none is up yet); its answer is not counted.
	if !*h1 {
		if resp, err := client.Get(strings.ReplaceAll(*url, "%NAME%", "go-load-probe")); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
	}
	var next atomic.Int64
	var failures atomic.Int64
	var proto atomic.Value
	proto.Store("")
	lat := make([][]float64, *c)
	var firstErr atomic.Value
	cpu0 := cpuMs()
	t0 := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < *c; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= *n {
					return
				}
				nm := name(i)
				var rd io.Reader
				if *body != "" {
					rd = bytes.NewReader([]byte(strings.ReplaceAll(*body, "%NAME%", nm)))
				}
				req, err := http.NewRequest(*method, strings.ReplaceAll(*url, "%NAME%", nm), rd)
				if err != nil {
					panic(err)
				}
				if rd != nil {
					req.Header.Set("Content-Type", "application/json")
				}
				req.Header.Set("Accept", "application/json")
				t := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					failures.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				lat[w] = append(lat[w], float64(time.Since(t).Microseconds())/1000)
				proto.Store(resp.Proto)
				if resp.StatusCode != *want {
					failures.Add(1)
					firstErr.CompareAndSwap(nil, fmt.Sprintf("request %d: HTTP %d, want %d", i, resp.StatusCode, *want))
				}
			}
		}(w)
	}
	wg.Wait()
	secs := time.Since(t0).Seconds()
	var all []float64
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Float64s(all)
	pct := func(p float64) float64 {
		if len(all) == 0 {
			return 0
		}
		k := int(p / 100 * float64(len(all)))
		if k >= len(all) {
			k = len(all) - 1
		}
		return all[k]
	}
	r := result{PerSec: float64(*n) / secs, P50: pct(50), P99: pct(99), Proto: proto.Load().(string), Opened: opened.Load(), CPUMs: cpuMs() - cpu0, Failures: failures.Load()}
	if e, ok := firstErr.Load().(string); ok {
		r.Error = e
	}
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
	if r.Failures > 0 {
		os.Exit(1)
	}
}
