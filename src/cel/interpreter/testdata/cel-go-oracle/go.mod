module celoracle

go 1.26.0

require (
	cel.dev/expr v0.25.1
	github.com/antlr4-go/antlr/v4 v4.13.1
	github.com/google/cel-go v0.29.2
	golang.org/x/exp v0.0.0-20260410095643-746e56fc9e2f
	golang.org/x/text v0.40.0
	google.golang.org/genproto/googleapis/api v0.0.0-20260526163538-3dc84a4a5aaa
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260526163538-3dc84a4a5aaa
	google.golang.org/protobuf v1.36.12-0.20260120151049-f2248ac996af
)

require go.yaml.in/yaml/v3 v3.0.4 // indirect
