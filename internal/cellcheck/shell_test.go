package cellcheck

import (
	"errors"
	"strings"
	"testing"
)

func TestShellRejected(t *testing.T) {
	tests := []struct {
		src   string
		found string // the line quoted in the error; "" means src itself
		line  int
	}{
		{"ls -la", "", 1},
		{"ls", "", 1},
		{"pwd", "", 1},
		{"ls\n", "ls", 1},
		{"cat file | grep x", "", 1},
		{"npm install", "", 1},
		{"npm install --save-dev typescript", "", 1},
		{"cd /tmp && make", "", 1},
		{"git status", "", 1},
		{"git log --oneline -5", "", 1},
		{"pip install x", "", 1},
		{"$ ls", "", 1},
		{"$ npm test", "", 1},
		{"#!/bin/bash\necho hi", "#!/bin/bash", 1},
		{"#!/usr/bin/env sh\nls", "#!/usr/bin/env sh", 1},
		{"echo hello > out.txt", "", 1},
		{"echo 'hello world'", "", 1},
		{`echo "$HOME"`, "", 1},
		{"curl -s https://x", "", 1},
		{"curl https://example.com/api | jq .", "", 1},
		{"python3 script.py", "", 1},
		{"python -m http.server 8000", "", 1},
		{"sudo apt-get install x", "", 1},
		{"ls | wc -l", "", 1},
		{"ls && make", "", 1},
		{"ps aux | grep node", "", 1},
		{"ls > files.txt", "", 1},
		{"cat ~/.bashrc", "", 1},
		{"ls *.go", "", 1},
		{"ls .", "", 1},
		{"cd ..", "", 1},
		{"rm -rf node_modules", "", 1},
		{"mkdir -p a/b/c", "", 1},
		{"grep -rn TODO src/", "", 1},
		{"find . -name '*.ts'", "", 1},
		{"docker ps", "", 1},
		{"kubectl get pods -n kube-system", "", 1},
		{"kill 1234", "", 1},
		{"kill -9 1234", "", 1},
		{"head -5 notes.txt", "", 1},
		{"node script.js", "", 1},
		{"npx tsc --noEmit", "", 1},
		{"go test ./...", "", 1},
		{"cargo build --release", "", 1},
		{"set -euo pipefail", "", 1},
		{"source venv/bin/activate", "", 1},
		{"export PATH=$PATH:/usr/local/bin", "", 1},
		{"NODE_ENV=test npm test", "", 1},
		{"CI=1 make", "", 1},
		{"./configure --prefix=/usr", "", 1},
		{"../run.sh", "", 1},
		{"~/bin/tool", "", 1},
		{"/usr/bin/env python3 x.py", "", 1},
		{"/bin/ls -la", "", 1},
		{"\n\n  ls -la  \n", "ls -la", 3},
		{"# install dependencies\nnpm install", "npm install", 2},
		{"# just a comment", "", 1},
		{"// list the files\nls -la", "ls -la", 2},
		{"/* list */\nls -la", "ls -la", 2},
		{"cd /tmp\nls -la\nmake", "cd /tmp", 1},
		{"\tgit\tstatus", "git\tstatus", 1},
		{"apt-get update", "", 1},
		{"g++ -O2 main.cpp", "", 1},
		{"tar -xzf x.tar.gz", "", 1},
		{"wget https://x/y.tgz", "", 1},
		{"ssh user@host", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			err := Check(tt.src)
			var ce *Error
			if !errors.As(err, &ce) || ce.Kind != KindShell {
				t.Fatalf("Check(%q) = %v, want a shell error", tt.src, err)
			}
			want := tt.found
			if want == "" {
				want = tt.src
			}
			if ce.Found != want || ce.Line != tt.line {
				t.Errorf("Found, Line = %q, %d; want %q, %d", ce.Found, ce.Line, want, tt.line)
			}
		})
	}
}

func TestShellMessage(t *testing.T) {
	err := Check("ls -la")
	want := `exec runs JavaScript, not a shell: "ls -la" looks like a shell command. Write a JavaScript program that calls tools (e.g. await tools.search("list files")).`
	if err == nil || err.Error() != want {
		t.Fatalf("Check error = %v\nwant %s", err, want)
	}
	long := "ls " + strings.Repeat("-la ", 1000)
	if err := Check(long); err == nil || len(err.Error()) > 400 {
		t.Fatalf("long shell line should give a short error, got %d bytes", len(err.Error()))
	}
}

// JavaScript that uses command names as identifiers, or shell text inside
// strings, must pass.
func TestShellNotRejected(t *testing.T) {
	for _, src := range []string{
		"const ls = 1",
		"ls(x)",
		"ls (x)",
		"cat.name",
		"return cat",
		"npm.install()",
		`text("ls -la")`,
		`await tools.exec({command: "ls"})`,
		"echo(1)",
		"echo`hi`",
		"cat = 1",
		"ls = [1, 2]",
		"time -= 1",
		"top - 1",
		"top -1",
		"time -1 + x",
		"kill -9 in obj",
		"ls * 2",
		"go ? a : b",
		"id => id * 2",
		"id, name",
		"date && run()",
		"node instanceof Element",
		"time in obj",
		"file as File",
		"diff\n  .trim()",
		"find\n(x)",
		"kill ||= 0",
		"sort >= 2",
		"head / 2",
		"head // comment",
		"head /* c */",
		"env.HOME",
		"history.push(state)",
		"make.call(null)",
		"$ = 1",
		"$(x)",
		"",
		"   ",
		"// only a comment",
		"/* block */ ls -la", // code after a comment on the same line: not judged
		"#!/usr/bin/env node\nconsole.log(1)",
		"const r = await tools.search(\"list files\");\nreturn r;",
		"const script = `\nls -la\nnpm install\n`;\nreturn script;",
		"const [t] = await tools.search('list shipments');\nconst s = await tools.callValue(t.id, {});\ntext(`${s.length} shipments`);\nreturn s.filter((x) => !x.paid && x.tons > 10);",
		"/abc/.test(s)",
		"/\\d+/g.exec(s)",
		"a=b",
		"x = y z",
		"async function main() {}",
		"type X = { a: number }",
		"let cd: string = '/tmp'",
		"for (const f of files) text(f)",
	} {
		if err := Check(src); err != nil {
			var ce *Error
			if errors.As(err, &ce) && ce.Kind == KindShell {
				t.Errorf("Check(%q) = %v, want no shell error", src, err)
			}
		}
	}
}

// TestCommandNamesSorted: a name out of order would silently not count.
func TestCommandNamesSorted(t *testing.T) {
	if a, b, ok := commandNames.Check(); !ok {
		t.Errorf("%q before %q: keep commandNames sorted and without duplicates", a, b)
	}
	for _, w := range []string{"ls", "apt-get", "g++", "wrangler", "docker-compose"} {
		if !command(w) {
			t.Errorf("command(%q) = false", w)
		}
	}
}
