//go:build !goexperiment.jsonv2

package main

var extraLibs []lib
