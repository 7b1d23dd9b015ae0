module crdkit/tools/go-regexp-oracle

go 1.26.0
