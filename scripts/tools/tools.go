//go:build tools

// Package tools pins the Go programs fsatlas builds (htmltest) through this go.mod.
package tools

import _ "github.com/wjdp/htmltest"
