//go:build !dev

package main

import "flag"

func registerBuildFlags(*flag.FlagSet) {}
