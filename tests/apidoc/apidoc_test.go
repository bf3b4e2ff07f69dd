// Package apidoc checks that go doc of every public package reads as a
// reference (issue 9): every exported name is documented.
package apidoc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// public reports whether a package directory (relative to the module root) is
// part of the public surface: not under internal/, not a test suite or build
// tool under tests/, not vendored JavaScript.
func public(dir string) bool {
	for _, seg := range strings.Split(filepath.ToSlash(dir), "/") {
		switch seg {
		case "internal", "testdata", "node_modules", "tests", "build":
			return false
		}
		if strings.HasPrefix(seg, ".") || strings.HasPrefix(seg, "_") {
			return false
		}
	}
	return true
}

// undocumented lists the exported names of the non-main package in dir that
// have no doc comment: functions, methods of exported types, types, constants
// and variables (a group's comment covers its members) and the exported fields
// and interface methods of exported types.
func undocumented(t *testing.T, root, dir string) []string {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, filepath.Join(root, dir), func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	miss := func(pos token.Pos, what string) {
		p := fset.Position(pos)
		rel, _ := filepath.Rel(root, p.Filename)
		out = append(out, rel+":"+strconv.Itoa(p.Line)+": "+what)
	}
	for name, pkg := range pkgs {
		if name == "main" {
			continue
		}
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() || d.Doc != nil {
						continue
					}
					if d.Recv != nil {
						if recv := recvType(d.Recv); recv != "" && ast.IsExported(recv) {
							miss(d.Pos(), "method "+recv+"."+d.Name.Name)
						}
						continue
					}
					miss(d.Pos(), "func "+d.Name.Name)
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if !s.Name.IsExported() {
								continue
							}
							if s.Doc == nil && d.Doc == nil {
								miss(s.Pos(), "type "+s.Name.Name)
							}
							fields(s, miss)
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
									miss(n.Pos(), d.Tok.String()+" "+n.Name)
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

// fields reports the undocumented exported fields of a struct type and the
// undocumented methods of an interface type.
func fields(s *ast.TypeSpec, miss func(token.Pos, string)) {
	var list *ast.FieldList
	switch ty := s.Type.(type) {
	case *ast.StructType:
		list = ty.Fields
	case *ast.InterfaceType:
		list = ty.Methods
	default:
		return
	}
	for _, fl := range list.List {
		if fl.Doc != nil || fl.Comment != nil {
			continue
		}
		for _, n := range fl.Names {
			if n.IsExported() {
				miss(n.Pos(), "field "+s.Name.Name+"."+n.Name)
			}
		}
	}
}

func recvType(fl *ast.FieldList) string {
	if len(fl.List) == 0 {
		return ""
	}
	ty := fl.List[0].Type
	for {
		switch x := ty.(type) {
		case *ast.StarExpr:
			ty = x.X
		case *ast.IndexExpr:
			ty = x.X
		case *ast.IndexListExpr:
			ty = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// publicDirs walks the module and returns its root and the public
// directories that hold non-test Go files, relative to the root.
func publicDirs(t *testing.T) (root string, dirs []string) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if rel != "." && !public(rel) {
			return filepath.SkipDir
		}
		if ents, _ := os.ReadDir(path); hasGo(ents) {
			dirs = append(dirs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return root, dirs
}

// TestEveryExportedNameIsDocumented walks the module's public packages.
func TestEveryExportedNameIsDocumented(t *testing.T) {
	root, dirs := publicDirs(t)
	var all []string
	for _, rel := range dirs {
		all = append(all, undocumented(t, root, rel)...)
	}
	sort.Strings(all)
	for _, m := range all {
		t.Error("undocumented exported name: " + m)
	}
}

func hasGo(ents []fs.DirEntry) bool {
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			return true
		}
	}
	return false
}
