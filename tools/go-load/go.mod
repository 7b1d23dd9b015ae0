module crdkit/tools/go-load

go 1.26.0
