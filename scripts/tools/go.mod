// Pinned Go tools for fsatlas, built by scripts/setup.sh: go build -o ../../.tools/bin/htmltest github.com/wjdp/htmltest
module fsatlas/tools

go 1.19

require github.com/wjdp/htmltest v0.17.0

require (
	github.com/badoux/checkmail v1.2.1 // indirect
	github.com/docopt/docopt-go v0.0.0-20180111231733-ee0de3bc6815 // indirect
	github.com/fatih/color v1.10.0 // indirect
	github.com/imdario/mergo v0.3.11 // indirect
	github.com/mattn/go-colorable v0.1.8 // indirect
	github.com/mattn/go-isatty v0.0.12 // indirect
	golang.org/x/net v0.0.0-20201224014010-6772e930b67b // indirect
	golang.org/x/sys v0.0.0-20210113181707-4bcb84eeeb78 // indirect
	gopkg.in/seborama/govcr.v2 v2.4.2 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)
