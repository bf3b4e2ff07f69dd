package apidoc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The root API stays small (issue 25): a Go user reads it in five minutes, as
// wazero's root. Everything else lives under internal/. Raise these only with
// a reason a reviewer accepts; the usual fix is to unexport or move.
const (
	maxPublicPackages = 8
	maxExportedNames  = 90
)

// exportedNames lists the top-level exported identifiers of the library
// package in dir ("pkg.Name"): every function, type, constant and variable,
// each member of a group counted on its own, over all non-test files whatever
// their build tags. Methods and struct fields are part of their type. A main
// package has none.
func exportedNames(t *testing.T, root, dir string) (pkgName string, names []string) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, filepath.Join(root, dir), func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for name, pkg := range pkgs {
		if name == "main" {
			continue
		}
		pkgName = name
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Name.IsExported() {
						seen[d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() {
								seen[s.Name.Name] = true
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() {
									seen[n.Name] = true
								}
							}
						}
					}
				}
			}
		}
	}
	for n := range seen {
		names = append(names, dir+"."+n)
	}
	sort.Strings(names)
	return pkgName, names
}

// TestPublicAPIStaysSmall counts the public library packages and their
// top-level exported names and fails above the limits, so the API cannot grow
// back silently. -v prints the per-package counts.
func TestPublicAPIStaysSmall(t *testing.T) {
	root, dirs := publicDirs(t)
	var pkgs, all []string
	for _, rel := range dirs {
		if name, names := exportedNames(t, root, filepath.ToSlash(rel)); name != "" {
			pkgs = append(pkgs, rel)
			all = append(all, names...)
			t.Logf("%-24s %3d names", rel, len(names))
		}
	}
	if len(pkgs) > maxPublicPackages {
		t.Errorf("%d public library packages (%s), at most %d: move the new one under internal/", len(pkgs), strings.Join(pkgs, ", "), maxPublicPackages)
	}
	if len(all) > maxExportedNames {
		t.Errorf("%d top-level exported names in the public packages, at most %d: unexport or move under internal/ what a Go user of the runtime does not call:\n%s", len(all), maxExportedNames, strings.Join(all, "\n"))
	}
}
