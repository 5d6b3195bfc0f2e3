package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDoctorOneLinePerProblem: doctor's default output prints one entry per
// problem, not one per script (an untrusted ZeroCode install is one problem
// with three scripts), and no line wider than 160 columns for a home whose
// path is longer than a typical /home/alice.
func TestDoctorOneLinePerProblem(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home-of-a-user")
	for _, d := range []string{".claude", ".zerotwo", ".gemini"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string {
		switch k {
		case "HOME":
			return home
		case "PATH":
			return "/usr/bin:/bin"
		}
		return ""
	}
	var out, errb bytes.Buffer
	if code := run([]string{"add", "claude", "zerocode", "gemini"}, nil, &out, &errb, getenv); code != 0 {
		t.Fatalf("add: exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"doctor", "--no-fire"}, nil, &out, &errb, getenv); code != exitFail {
		t.Fatalf("doctor: exit %d, want 1 (zerocode untrusted)\n%s%s", code, out.String(), errb.String())
	}
	text := out.String()
	for _, l := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(l); n > 160 {
			t.Errorf("a line of %d columns:\n%s", n, l)
		}
	}
	if n := strings.Count(text, "trust.zerocode"); n != 1 {
		t.Errorf("the untrusted zerocode install is told %d times, want once:\n%s", n, text)
	}
	if !strings.Contains(text, "hint: open zerocode, type /hooks") {
		t.Errorf("no hint to trust zerocode's hooks:\n%s", text)
	}
}
