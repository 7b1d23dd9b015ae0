// Command gnostic-oracle writes the protobuf form kube-openapi serves for a Swagger 2.0 JSON document read
// from stdin (openapi_v2.ParseDocument + proto.Marshal, as handler.ToProtoBinary): it recorded
// test/server/fixtures/openapi-v2-protobuf.json. Build: cd tools/gnostic-oracle && go build -o /tmp/gnostic-oracle .
package main

import (
	"io"
	"os"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"google.golang.org/protobuf/proto"
)

func main() {
	b, _ := io.ReadAll(os.Stdin)
	d, err := openapi_v2.ParseDocument(b)
	if err != nil {
		os.Stderr.WriteString(err.Error())
		os.Exit(1)
	}
	out, _ := proto.Marshal(d)
	os.Stdout.Write(out)
}
