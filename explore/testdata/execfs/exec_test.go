package execfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestEcho runs /bin/echo and checks its output.
func TestEcho(t *testing.T) {
	out, err := exec.Command("/bin/echo", "hi").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "hi\n" {
		t.Fatalf("output %q", out)
	}
}

// wrongEcho expects other output (a test failure).
func wrongEcho(t *testing.T) {
	out, err := exec.Command("/bin/echo", "hi").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "hello\n" {
		t.Fatalf("output %q, want %q", out, "hello\n")
	}
}

// TestGoVersion runs go version, found in $PATH.
func TestGoVersion(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", "version")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "go version go") {
		t.Fatalf("go version printed %q", stdout.String())
	}
	if !cmd.ProcessState.Success() || cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("state %v", cmd.ProcessState)
	}
}

// TestHelperProcess is the child of the tests that re-execute the test
// binary (as os/exec's tests do): it runs only with
// GO_WANT_HELPER_PROCESS=1.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("GO_WANT_HELPER_PROCESS") != "1" {
		return
	}
	defer os.Exit(0)
	args := os.Args
	for len(args) > 0 && args[0] != "--" {
		args = args[1:]
	}
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "no command")
		os.Exit(2)
	}
	switch args[1] {
	case "echo":
		fmt.Println(strings.Join(args[2:], " "))
	case "cat":
		io.Copy(os.Stdout, os.Stdin)
	case "fail":
		fmt.Fprintln(os.Stderr, "failing")
		os.Exit(3)
	}
}

// helperCommand returns a command that runs the test binary's helper
// process with the given arguments.
func helperCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=TestHelperProcess", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "GO_WANT_HELPER_PROCESS=1")
	return cmd
}

// TestHelper runs the helper process: echo, cat with standard input, and
// a failing command.
func TestHelper(t *testing.T) {
	out, err := helperCommand("echo", "a", "b").CombinedOutput()
	if err != nil {
		t.Fatalf("echo: %v: %s", err, out)
	}
	if string(out) != "a b\n" {
		t.Fatalf("echo printed %q", out)
	}
	cmd := helperCommand("cat")
	cmd.Stdin = strings.NewReader("input")
	var buf bytes.Buffer
	cmd.Stdout = &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "input" {
		t.Fatalf("cat printed %q", buf.String())
	}
	_, err = helperCommand("fail").Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("fail: %v, want an *exec.ExitError", err)
	}
	if ee.ExitCode() != 3 || err.Error() != "exit status 3" || string(ee.Stderr) != "failing\n" {
		t.Fatalf("fail: %v (code %d, stderr %q)", err, ee.ExitCode(), ee.Stderr)
	}
}

// wrongHelperExit expects the failing command to succeed (a test
// failure).
func wrongHelperExit(t *testing.T) {
	if err := helperCommand("fail").Run(); err != nil {
		t.Fatalf("fail: %v", err)
	}
}

// TestNotFound runs a command that is not in $PATH.
func TestNotFound(t *testing.T) {
	err := exec.Command("no-such-command-for-execfs").Run()
	if !errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("running a missing command: %v", err)
	}
}

// TestConcurrentCommands runs two commands on two goroutines.
func TestConcurrentCommands(t *testing.T) {
	var wg sync.WaitGroup
	outs := make([]string, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := exec.Command("/bin/echo", strconv.Itoa(i)).Output()
			if err != nil {
				t.Error(err)
			}
			outs[i] = string(out)
		}()
	}
	wg.Wait()
	if outs[0] != "0\n" || outs[1] != "1\n" {
		t.Fatalf("outputs %q", outs)
	}
}

// wrongCommandOrder expects the first goroutine's command to run first
// (a test failure in the executions where it does not).
func wrongCommandOrder(t *testing.T) {
	var mu sync.Mutex
	var order []string
	done := make(chan bool)
	for i := range 2 {
		go func() {
			out, _ := exec.Command("/bin/echo", strconv.Itoa(i)).Output()
			mu.Lock()
			order = append(order, strings.TrimSpace(string(out)))
			mu.Unlock()
			done <- true
		}()
	}
	<-done
	<-done
	if strings.Join(order, "") != "01" {
		t.Fatalf("commands finished in the order %v", order)
	}
}

// TestStdinPipe feeds /bin/cat from a pipe another goroutine writes after
// Start.
func TestStdinPipe(t *testing.T) {
	pr, pw := io.Pipe()
	cmd := exec.Command("/bin/cat")
	cmd.Stdin = pr
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		pw.Write([]byte("piped"))
		pw.Close()
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if out.String() != "piped" {
		t.Fatalf("cat printed %q", out.String())
	}
}

// TestStartErrors checks the errors of starting a missing program and of
// waiting twice.
func TestStartErrors(t *testing.T) {
	err := exec.Command("/no/such/program").Start()
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("starting a missing program: %v", err)
	}
	cmd := exec.Command("/bin/echo")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("second Wait succeeded")
	}
}
