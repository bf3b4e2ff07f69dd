//go:build !goexperiment.jsonv2

package core

var jsonV2 []jsonLib
