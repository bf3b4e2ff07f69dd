package cellcheck

import (
	"strings"
	"unicode/utf8"

	"github.com/codemode-go/codemode/internal/wordset"
)

// checkShell reports input whose first significant line reads as a shell
// command. Only that line is judged: a JavaScript program's first line is
// JavaScript, and later lines may legitimately hold shell text inside template
// literals. Leading blank lines and // comments are skipped; shell comments
// (# ...) are skipped too, but if nothing else qualifies they themselves mark
// the input as shell, because no JavaScript program starts with "# ".
func checkShell(src string) *Error {
	lineNo, hashLine, hashNo := 0, "", 0
	inBlock := false
	for rest := src; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		lineNo++
		s := strings.TrimSpace(line)
		switch {
		case inBlock:
			if _, after, ok := strings.Cut(s, "*/"); ok {
				inBlock = false
				if strings.TrimSpace(after) != "" {
					return nil // code after a comment on the same line: JavaScript-shaped
				}
			}
			continue
		case s == "" || strings.HasPrefix(s, "//"):
			continue
		case strings.HasPrefix(s, "/*"):
			inBlock = !strings.Contains(s[2:], "*/")
			if !inBlock && !strings.HasSuffix(s, "*/") {
				return nil
			}
			continue
		case lineNo == 1 && strings.HasPrefix(s, "#!"):
			if jsInterpreter(s) {
				continue
			}
			return shellErr(s, lineNo)
		case strings.HasPrefix(s, "#") && !strings.HasPrefix(s, "#!"):
			if hashLine == "" {
				hashLine, hashNo = s, lineNo
			}
			continue
		}
		if isShellLine(s, strings.TrimSpace(rest) == "") {
			return shellErr(s, lineNo)
		}
		break
	}
	if hashLine != "" {
		return shellErr(hashLine, hashNo)
	}
	return nil
}

func shellErr(line string, n int) *Error {
	if len(line) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut]
	}
	return &Error{Kind: KindShell, Line: n, Found: line}
}

// jsInterpreter reports whether a #! line runs a JavaScript engine, making the
// rest of the input a script we should treat as JavaScript.
func jsInterpreter(hashbang string) bool {
	for _, js := range []string{"node", "deno", "bun", "qjs", "quickjs", "tsx", "ts-node"} {
		for _, f := range strings.Fields(hashbang[2:]) {
			if f == js || strings.HasSuffix(f, "/"+js) {
				return true
			}
		}
	}
	return false
}

// isShellLine judges one trimmed line. whole says the line is the entire input,
// which lets a lone command word (`ls`, `pwd`) count as shell: as JavaScript it
// would only be a ReferenceError.
func isShellLine(s string, whole bool) bool {
	// "$ ls": a pasted prompt. "$" followed by a space and a word is not
	// JavaScript ($ = 1 and $(x) are).
	if rest, ok := strings.CutPrefix(s, "$ "); ok {
		return rest != "" && startsWord(rest)
	}
	// Relative executables: ./configure, ../run.sh, ~/bin/x. Never JavaScript.
	for _, p := range []string{"./", "../", "~/"} {
		if strings.HasPrefix(s, p) && len(s) > len(p) && s[len(p)] != ' ' {
			return true
		}
	}
	if isAbsolutePathCommand(s) {
		return true
	}
	word, rest := leadingWord(s)
	if word == "" {
		return false
	}
	// FOO=bar npm test, export FOO=bar
	if w, r := assignmentPrefix(s); w != "" {
		next, _ := leadingWord(r)
		return command(next) || w == "export"
	}
	if !command(word) {
		return false
	}
	if rest == "" {
		return whole
	}
	if rest[0] != ' ' && rest[0] != '\t' {
		return false // ls(x), cat.name, echo`x`, npm.install()
	}
	arg := strings.TrimLeft(rest, " \t")
	if after, ok := cutShellOperator(arg); ok {
		// `ls | wc -l`, `ls && make`, `ls > files.txt`: valid JavaScript
		// operators, but between two commands (or before a file name) they are
		// a pipeline or a redirect.
		after = strings.TrimLeft(after, " \t")
		if strings.HasPrefix(arg, ">") {
			name, _ := leadingWord(after)
			return strings.ContainsAny(name, "./") && name != "." || strings.HasPrefix(after, "/")
		}
		return startsCommand(after)
	}
	return looksLikeArgument(arg)
}

// startsCommand: the segment after a pipe or list operator is a command name
// alone, or followed by an argument or another operator (`ls | wc -l`,
// `ls && make`, `ps | grep node | wc`). Not recursive, so a long pipeline
// costs one pass.
func startsCommand(seg string) bool {
	word, rest := leadingWord(seg)
	if !command(word) {
		return false
	}
	if rest == "" {
		return true
	}
	if rest[0] != ' ' && rest[0] != '\t' {
		return false
	}
	arg := strings.TrimLeft(rest, " \t")
	if _, ok := cutShellOperator(arg); ok {
		return true
	}
	return arg == "" || looksLikeArgument(arg)
}

// cutShellOperator cuts a leading pipe, list or redirect operator.
func cutShellOperator(s string) (string, bool) {
	for _, op := range []string{"||", "&&", "|", ";", ">>", ">"} {
		if after, ok := strings.CutPrefix(s, op); ok {
			if op == ">" && strings.HasPrefix(after, "=") || op == "|" && strings.HasPrefix(after, "=") {
				return "", false // >= and |= are comparisons/assignments
			}
			return after, true
		}
	}
	return "", false
}

// looksLikeArgument judges what follows "<command> ". As JavaScript, an
// identifier followed by another word, a string, a number or a path is a
// syntax error (or, for `ls -la` and `cat /etc/x`, arithmetic nobody writes),
// while an operator continues an expression: `cat = 1`, `ls ? a : b`.
func looksLikeArgument(arg string) bool {
	if arg == "" {
		return false
	}
	c := arg[0]
	next := byte(0)
	if len(arg) > 1 {
		next = arg[1]
	}
	switch {
	case c == '-': // a flag: -la, --save, but not "- 1" or "-= 1"
		if isDigit(next) {
			// kill -9 1234, head -5 f: a number followed by another word is
			// not arithmetic (x -9 y is a syntax error).
			i := 1
			for i < len(arg) && isDigit(arg[i]) {
				i++
			}
			after := strings.TrimLeft(arg[i:], " \t")
			return len(after) < len(arg[i:]) && after != "" && isWordStart(after)
		}
		return isLetter(next) || next == '-' && len(arg) > 2 && isLetter(arg[2])
	case c == '/': // a path: /tmp, but not "/ 2", "// c", "/* c */", "/= 2"
		return next != 0 && next != ' ' && next != '/' && next != '*' && next != '='
	case c == '*': // a glob: *.txt, but not "* 2" or "** 2"
		return next != 0 && next != ' ' && next != '*' && next != '='
	case c == '.': // ./x, ../x, . and .. (but not ".name", a spaced member access)
		return next == '/' || next == ' ' || next == 0 || next == '.' && (len(arg) == 2 || arg[2] == '/' || arg[2] == ' ')
	case c == '~', c == '"', c == '\'', c == '$', isDigit(c):
		return true
	case c == '&' && next == '>', c == '2' && next == '>':
		return true
	case isLetter(c) || c == '_' || c >= 0x80:
		w, _ := leadingWord(arg)
		return !operatorWord(w)
	}
	return false
}

// operatorWord reports a word that may follow an identifier in JavaScript
// or TypeScript.
func operatorWord(w string) bool {
	switch w {
	case "in", "instanceof", "of", "as", "satisfies":
		return true
	}
	return false
}

// leadingWord splits off a command-like word: letters, digits and ._+- (so
// apt-get, python3.11 and g++ are words, while cat.name is one word that is no
// command and ls(x) stops at the parenthesis).
func leadingWord(s string) (word, rest string) {
	i := 0
	for i < len(s) {
		c := s[i]
		if isLetter(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '+' {
			i++
			continue
		}
		break
	}
	return s[:i], s[i:]
}

// assignmentPrefix recognises shell variable assignments before a command
// (NAME=value rest) and `export NAME=value`; it returns the word before the
// rest ("export" or the variable name) and the rest after the value.
func assignmentPrefix(s string) (word, rest string) {
	if r, ok := strings.CutPrefix(s, "export "); ok {
		name, after := leadingWord(strings.TrimLeft(r, " "))
		if name != "" && isUpperName(name) && strings.HasPrefix(after, "=") {
			return "export", ""
		}
		return "", ""
	}
	name, after := leadingWord(s)
	if name == "" || !isUpperName(name) || !strings.HasPrefix(after, "=") || strings.HasPrefix(after, "==") {
		return "", ""
	}
	value := after[1:]
	end := strings.IndexAny(value, " \t")
	if end <= 0 {
		return "", ""
	}
	return name, strings.TrimLeft(value[end:], " \t")
}

// isUpperName: shell variables in such prefixes are conventionally upper case
// (CI=1, NODE_ENV=test); requiring it keeps `a=b c` JavaScript typos out.
func isUpperName(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || isDigit(c) || c == '_') {
			return false
		}
	}
	return true
}

// isAbsolutePathCommand: /usr/bin/env python, /bin/ls -la. As JavaScript this
// would be a regex literal with nonsense flags.
func isAbsolutePathCommand(s string) bool {
	if len(s) < 2 || s[0] != '/' {
		return false
	}
	i, slashes := 0, 0
	for i < len(s) {
		c := s[i]
		if c == '/' {
			slashes++
		} else if !(isLetter(c) || isDigit(c) || c == '_' || c == '-' || c == '.') {
			break
		}
		i++
	}
	return slashes >= 2 && i > 2 && s[i-1] != '/' && (i == len(s) || s[i] == ' ' || s[i] == '\t')
}

// isWordStart: s starts a shell word that would be a second operand with no
// operator between, in JavaScript a syntax error.
func isWordStart(s string) bool {
	c := s[0]
	if isLetter(c) || c == '_' {
		w, _ := leadingWord(s)
		return !operatorWord(w)
	}
	return isDigit(c) || c == '/' && len(s) > 1 && s[1] != '/' && s[1] != '*' || c == '~' || c == '"' || c == '\''
}

func startsWord(s string) bool { return isLetter(s[0]) || s[0] == '.' || s[0] == '/' || s[0] == '~' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// command reports a name that starts a shell command line. JavaScript and
// TypeScript keywords (export, type, let, ...) are deliberately absent; a name
// here only matters when it is followed by something that cannot continue a
// JavaScript expression.
func command(name string) bool { return commandNames.Has(name) }

// commandNames is command's list (a wordset.Set: package init builds no
// map of it, and V8 compiles no large switch for it on a page's first exec).
var commandNames = wordset.Set{
	"ag", "alias", "apk", "apt", "apt-get", "awk", "aws", "az", "base64", "basename", "bash", "brew",
	"bun", "bundle", "cargo", "cat", "cd", "chgrp", "chmod", "chown", "clang", "cmake", "code",
	"composer", "conda", "cp", "crontab", "curl", "cut", "dash", "date", "deno", "df", "diff", "dig",
	"dirname", "dnf", "docker", "docker-compose", "dpkg", "du", "echo", "egrep", "emacs", "env", "exit",
	"fd", "fgrep", "file", "find", "fish", "free", "g++", "gcc", "gcloud", "gem", "gh", "git", "go",
	"gradle", "grep", "gunzip", "gzip", "head", "helm", "heroku", "history", "hostname", "htop", "id",
	"java", "javac", "journalctl", "jq", "kill", "killall", "kubectl", "la", "less", "ll", "ln", "locate",
	"ls", "lsof", "make", "man", "md5sum", "mkdir", "more", "mv", "mvn", "nano", "nc", "netstat", "node",
	"nohup", "npm", "npx", "nslookup", "open", "pacman", "paste", "patch", "perl", "php", "ping", "pip",
	"pip3", "pipx", "pkill", "pnpm", "podman", "poetry", "printenv", "printf", "ps", "pwd", "py",
	"python", "python3", "rails", "realpath", "rg", "rm", "rmdir", "rsync", "ruby", "rustc", "rustup",
	"scp", "sed", "service", "set", "sh", "sha256sum", "sleep", "snap", "sort", "source", "ss", "ssh",
	"stat", "su", "sudo", "systemctl", "tac", "tail", "tar", "tee", "telnet", "terraform", "time", "top",
	"touch", "tr", "tree", "tsc", "ulimit", "uname", "uniq", "unset", "unzip", "uptime", "uv", "vercel",
	"vi", "vim", "watch", "wc", "wget", "whereis", "which", "whoami", "wrangler", "xargs", "xz", "yarn",
	"yq", "yum", "zip", "zsh",
}
