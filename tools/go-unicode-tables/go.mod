module crdkit.dev/tools/go-unicode-tables

go 1.26
