// Command etcd builds etcd 3.6 from the Go module proxy (Debian ships 3.4), so that crdkit's store tests can
// run against a current etcd: `npm run etcd:build` puts the binary in node_modules/.cache/etcd-3.6/etcd.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
