// Package execfs holds tests that run subprocesses and use the file
// system beyond reading and writing temporary files: metadata,
// directories, os.OpenFile, renames, walks and file errors. The
// functions named wrong… are failing variants, explored as entries (not
// run by go test).
package execfs

import (
	"errors"
	"io/fs"
	"io/ioutil"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStatReadDir stats files and lists a directory of a temporary
// directory.
func TestStatReadDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "b.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Name() != "b.txt" || fi.Size() != 5 || fi.IsDir() || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o644 {
		t.Fatalf("stat b.txt: %s %d %v %v", fi.Name(), fi.Size(), fi.IsDir(), fi.Mode())
	}
	if fi.ModTime().IsZero() {
		t.Fatal("zero modification time")
	}
	di, err := os.Lstat(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	if !di.IsDir() || di.Mode()&fs.ModeDir == 0 {
		t.Fatalf("a is not a directory: %v", di.Mode())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		if e.Name() == "a" && !e.IsDir() {
			t.Fatal("a: IsDir false")
		}
	}
	if got := strings.Join(names, " "); got != "a b.txt" {
		t.Fatalf("entries %q, want %q", got, "a b.txt")
	}
	infos, err := ioutil.ReadDir(dir)
	if err != nil || len(infos) != 2 || infos[0].Name() != "a" || infos[1].Size() != 5 {
		t.Fatalf("ioutil.ReadDir: %v, %v", infos, err)
	}
	if want := "-rw-r--r--"; fi.Mode().String() != want {
		t.Fatalf("mode %s, want %s", fi.Mode(), want)
	}
}

// wrongStatSize expects the wrong size (a test failure).
func wrongStatSize(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != 4 {
		t.Fatalf("size %d, want 4", fi.Size())
	}
}

// TestOpenFileFlags opens files with os.OpenFile's flags.
func TestOpenFileFlags(t *testing.T) {
	name := filepath.Join(t.TempDir(), "log")
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("one\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); !errors.Is(err, fs.ErrExist) || !os.IsExist(err) {
		t.Fatalf("O_EXCL of an existing file: %v", err)
	}
	f, err = os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("two\n")
	f.Close()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "one\ntwo\n" {
		t.Fatalf("after append: %q", data)
	}
	f, err = os.OpenFile(name, os.O_RDWR|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("3")
	f.Close()
	if data, _ := os.ReadFile(name); string(data) != "3" {
		t.Fatalf("after truncation: %q", data)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want -rw-------", fi.Mode())
	}
	if _, err := os.OpenFile(filepath.Join(filepath.Dir(name), "missing"), os.O_RDONLY, 0); !os.IsNotExist(err) {
		t.Fatalf("opening a missing file: %v", err)
	}
}

// TestRenameChmod renames a file and a directory and changes a mode.
func TestRenameChmod(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old")
	if err := os.MkdirAll(filepath.Join(old, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, "sub", "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(old, filepath.Join(dir, "new")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("old name after rename: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "new", "sub", "f")); err != nil || string(data) != "x" {
		t.Fatalf("renamed file: %q, %v", data, err)
	}
	err := os.Rename(filepath.Join(dir, "missing"), filepath.Join(dir, "other"))
	var le *os.LinkError
	if !errors.As(err, &le) || !os.IsNotExist(err) {
		t.Fatalf("renaming a missing file: %v", err)
	}
	f := filepath.Join(dir, "new", "sub", "f")
	if err := os.Chmod(f, 0o400); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o400 {
		t.Fatalf("mode after chmod: %v, %v", fi.Mode(), err)
	}
}

// TestWalkDir walks a temporary tree with filepath.WalkDir and
// filepath.Walk, skipping a directory.
func TestWalkDir(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a/1", "a/2", "b/skip/3", "c"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "skip" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(dir, path)
		seen = append(seen, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(seen, " "), ". a a/1 a/2 b c"; got != want {
		t.Fatalf("WalkDir visited %q, want %q", got, want)
	}
	var files []string
	err = filepath.Walk(dir, func(path string, info fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() {
			files = append(files, info.Name())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(files, []string{"1", "2", "3", "c"}) {
		t.Fatalf("Walk found files %v", files)
	}
	err = filepath.WalkDir(filepath.Join(dir, "missing"), func(path string, d fs.DirEntry, err error) error { return err })
	if !os.IsNotExist(err) {
		t.Fatalf("walking a missing root: %v", err)
	}
}

// wrongWalkDir expects a file the walk does not visit (a test
// failure).
func wrongWalkDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o644)
	n := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		n++
		return err
	})
	if n != 3 {
		t.Fatalf("walk visited %d entries, want 3", n)
	}
}

// TestDirHandle lists a directory through an open *os.File.
func TestDirHandle(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"z", "y", "x"} {
		os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644)
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fi, err := d.Stat()
	if err != nil || !fi.IsDir() {
		t.Fatalf("stat of the open directory: %v", err)
	}
	names, err := d.Readdirnames(-1)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	if strings.Join(names, "") != "xyz" {
		t.Fatalf("names %v", names)
	}
}

// TestNotExist checks the errors of a missing file.
func TestNotExist(t *testing.T) {
	name := filepath.Join(t.TempDir(), "missing")
	_, err := os.ReadFile(name)
	if !os.IsNotExist(err) || !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("reading a missing file: %v", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != name {
		t.Fatalf("not a *PathError of open %s: %#v", name, err)
	}
	if want := "open " + name + ": no such file or directory"; err.Error() != want {
		t.Fatalf("message %q, want %q", err, want)
	}
	if _, err := os.Stat("testdata/missing"); !os.IsNotExist(err) {
		t.Fatalf("stat of a missing fixture: %v", err)
	}
	if os.IsExist(err) {
		t.Fatal("IsExist of a missing file")
	}
}

// wrongNotExist expects a missing file to exist (a test failure).
func wrongNotExist(t *testing.T) {
	_, err := os.Stat(filepath.Join(t.TempDir(), "missing"))
	if os.IsNotExist(err) {
		t.Fatalf("stat: %v", err)
	}
}

// TestTempInMissingDir checks os.MkdirTemp's and os.CreateTemp's errors in
// a missing directory (Go's: the directory's stat error, the new name's
// open error).
func TestTempInMissingDir(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	_, err := os.MkdirTemp(missing, "x")
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "stat" || pe.Path != missing || !os.IsNotExist(err) {
		t.Fatalf("MkdirTemp in a missing directory: %v", err)
	}
	if _, err := os.CreateTemp(missing, "x"); !os.IsNotExist(err) {
		t.Fatalf("CreateTemp in a missing directory: %v", err)
	}
	if _, err := os.MkdirTemp("/no-such-dir-execfs", "x"); !os.IsNotExist(err) {
		t.Fatalf("MkdirTemp in a missing host directory: %v", err)
	}
}

// TestReadOnlyFile reads, renames and removes a read-only file.
func TestReadOnlyFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "ro")
	if err := os.WriteFile(name, []byte("x"), 0o444); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(name); err != nil || string(data) != "x" {
		t.Fatalf("reading: %q, %v", data, err)
	}
	if err := os.Rename(name, name+"2"); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(name + "2"); err != nil {
		t.Fatal(err)
	}
}

// readOnlyWrite writes a read-only file: whether that fails depends on
// the user (root may), so it is unsupported.
func readOnlyWrite(t *testing.T) {
	name := filepath.Join(t.TempDir(), "ro")
	os.WriteFile(name, []byte("x"), 0o444)
	if err := os.WriteFile(name, []byte("y"), 0o444); err == nil {
		t.Log("root")
	}
}
