// Package osmodels holds tests that use temporary files and directories,
// crypto/rand and os.Executable, as real test suites do.
package osmodels

import (
	"bytes"
	"crypto/rand"
	"io"
	"io/ioutil"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestTempFileRoundTrip writes a temporary file, reads it back through
// the same handle and by name, and removes it.
func TestTempFileRoundTrip(t *testing.T) {
	f, err := os.CreateTemp("", "round-*.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString("hello, "); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("world")); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "hello, world" {
		t.Fatalf("read back %q", got)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(f.Name())
	if err != nil || string(data) != "hello, world" {
		t.Fatalf("ReadFile: %q, %v", data, err)
	}
	if _, err := f.Write([]byte("more")); err == nil {
		t.Fatal("writing a closed file succeeded")
	}
	empty, err := os.CreateTemp("", "")
	if err != nil {
		t.Fatal(err)
	}
	empty.Close()
	if data, err := os.ReadFile(empty.Name()); err != nil || len(data) != 0 {
		t.Fatalf("empty file: %q, %v", data, err)
	}
	if !strings.HasSuffix(f.Name(), ".txt") {
		t.Fatalf("name %q", f.Name())
	}
}

// TestTempDirConcurrentWriters: goroutines write a file each into
// t.TempDir; the test reads them all back.
func TestTempDirConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := filepath.Join(dir, string(rune('a'+i)))
			if err := os.WriteFile(name, []byte{byte('0' + i)}, 0o644); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var all []byte
	for _, n := range []string{"a", "b"} {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, data...)
	}
	if string(all) != "01" {
		t.Fatalf("contents %q", all)
	}
	if sub := t.TempDir(); sub == dir {
		t.Fatalf("second TempDir %q is the first", sub)
	}
}

// TestTempDirLostWrite is TestTempDirConcurrentWriters whose writers
// share one file: the test fails on the schedules where the second
// writer writes last.
func TestTempDirLostWrite(t *testing.T) {
	name := filepath.Join(t.TempDir(), "shared")
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			os.WriteFile(name, []byte{byte('0' + i)}, 0o644)
		}()
	}
	wg.Wait()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "0" {
		t.Errorf("contents %q, want %q", data, "0")
	}
}

// TestIoutilTemp uses the deprecated io/ioutil functions and nested
// directories.
func TestIoutilTemp(t *testing.T) {
	dir, err := ioutil.TempDir("", "old")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Join(dir, "x", "y"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := ioutil.TempFile(filepath.Join(dir, "x", "y"), "f")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("data")
	f.Close()
	data, err := ioutil.ReadFile(f.Name())
	if err != nil || string(data) != "data" {
		t.Fatalf("%q, %v", data, err)
	}
	if _, err := os.ReadFile(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("reading a missing file succeeded")
	}
	os.RemoveAll(dir)
	if _, err := os.ReadFile(f.Name()); err == nil {
		t.Fatal("reading a removed file succeeded")
	}
}

// TestNonce draws a nonce from crypto/rand and checks its length.
func TestNonce(t *testing.T) {
	nonce := make([]byte, 12)
	n, err := rand.Read(nonce)
	if err != nil || n != len(nonce) {
		t.Fatalf("Read: %d, %v", n, err)
	}
	other := make([]byte, 12)
	if _, err := io.ReadFull(rand.Reader, other); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(nonce, other) {
		t.Fatalf("two nonces are equal: %x", nonce)
	}
	if s := rand.Text(); len(s) != 26 {
		t.Fatalf("Text: %q", s)
	}
}

// TestNonceLength expects a 16-byte nonce from a 12-byte buffer: it
// always fails.
func TestNonceLength(t *testing.T) {
	nonce := make([]byte, 12)
	rand.Read(nonce)
	if len(nonce) != 16 {
		t.Errorf("nonce has %d bytes, want 16", len(nonce))
	}
}

// TestExecutable logs the test binary's path.
func TestExecutable(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(exe) != "osmodels.test" {
		t.Fatalf("executable %q", exe)
	}
}

// TestTempNames prints the names of its temporary files: the same in
// every execution.
func TestTempNames(t *testing.T) {
	d := t.TempDir()
	f, err := os.CreateTemp(d, "*.log")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Errorf("names %s %s %s", os.TempDir(), d, f.Name())
}

// TestReadBeforeWrite: a goroutine writes a file while another reads it;
// nothing else orders them, so the reader may find no file.
func TestReadBeforeWrite(t *testing.T) {
	name := filepath.Join(t.TempDir(), "ready")
	wrote, read := make(chan bool), make(chan error)
	go func() {
		os.WriteFile(name, []byte("ok"), 0o644)
		wrote <- true
	}()
	go func() {
		_, err := os.ReadFile(name)
		read <- err
	}()
	<-wrote
	if err := <-read; err != nil {
		t.Errorf("reader: %v", err)
	}
}
