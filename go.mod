module github.com/hookinstall/hookinstall

// The lowest go our dependencies allow (gofrs/flock v0.13.2 and
// golang.org/x/sys v0.49.0 declare 1.26.0; our own code needs 1.24, for
// testing.B.Loop). The toolchain line is the release we build with.
go 1.26.0

toolchain go1.26.8

require (
	github.com/creack/pty v1.1.24
	github.com/fsnotify/fsnotify v1.10.1
	github.com/gofrs/flock v0.13.2
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	github.com/tidwall/gjson v1.20.3
	golang.org/x/sys v0.49.0
	howett.net/plist v1.0.1
	mvdan.cc/sh/v3 v3.12.0
)

require (
	github.com/cpuguy83/go-md2man/v2 v2.0.6 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/tools v0.31.0 // indirect
)
