// Package netloop holds tests that talk over loopback connections between
// their own goroutines. The functions without the Test prefix fail, or
// block forever, on purpose: go test does not run them; the explorer's
// tests explore them by name.
package netloop

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// echo serves one connection of l: it writes back what it reads until
// EOF, then closes the connection if close is set.
func echo(t *testing.T, l net.Listener, close bool, done chan<- struct{}) {
	defer close_(done)
	c, err := l.Accept()
	if err != nil {
		t.Errorf("accept: %v", err)
		return
	}
	if _, err := io.Copy(c, c); err != nil {
		t.Errorf("copy: %v", err)
	}
	if close {
		c.Close()
	}
}

func close_(done chan<- struct{}) { close(done) }

// roundTrip dials addr, writes msg, half-closes and reads the reply to
// EOF.
func roundTrip(t *testing.T, addr, msg string) string {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, msg); err != nil {
		t.Fatalf("write: %v", err)
	}
	if err := c.(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatalf("close write: %v", err)
	}
	b, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return string(b)
}

// TestEcho runs an echo server goroutine and a client.
func TestEcho(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	done := make(chan struct{})
	go echo(t, l, true, done)
	if got := roundTrip(t, l.Addr().String(), "hello"); got != "hello" {
		t.Errorf("echo: %q, want %q", got, "hello")
	}
	<-done
}

// TestExchange has a client and a server exchange fixed-size messages
// with Read and Write (no helpers), checking the addresses both ends
// see.
func TestExchange(t *testing.T) {
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := l.Accept()
		if err != nil {
			t.Errorf("accept: %v", err)
			return
		}
		defer c.Close()
		buf := make([]byte, 4)
		if _, err := io.ReadFull(c, buf); err != nil {
			t.Errorf("server read: %v", err)
			return
		}
		if string(buf) != "ping" {
			t.Errorf("server got %q", buf)
		}
		if _, err := c.Write([]byte("pong")); err != nil {
			t.Errorf("server write: %v", err)
		}
	}()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if c.RemoteAddr().String() != l.Addr().String() {
		t.Errorf("remote %v, listener %v", c.RemoteAddr(), l.Addr())
	}
	if _, err := c.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(c, buf); err != nil {
		t.Fatal(err)
	}
	if string(buf) != "pong" {
		t.Errorf("client got %q", buf)
	}
	if n, err := c.Read(buf); n != 0 || err != io.EOF {
		t.Errorf("after the server closed: %d, %v; want 0, EOF", n, err)
	}
	c.Close()
	if _, err := c.Write([]byte("x")); err == nil || !errors.Is(err, net.ErrClosed) {
		t.Errorf("write after close: %v", err)
	}
	<-done
	l.Close()
	if _, err := l.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("accept after close: %v", err)
	}
}

// TestReadDeadline reads from a connection nobody writes to, with a read
// deadline: the read times out (in virtual time, in the explorer).
func TestReadDeadline(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.DialTimeout("tcp", l.Addr().String(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := c.SetReadDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	n, err := c.Read(make([]byte, 8))
	var ne net.Error
	if n != 0 || !errors.As(err, &ne) || !ne.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read: %d, %v; want a timeout", n, err)
	}
	if !strings.HasSuffix(err.Error(), ": i/o timeout") || !os.IsTimeout(err) {
		t.Errorf("message %q", err)
	}
}

// TestPipeWriteDeadline writes on a pipe nobody reads, with a write
// deadline: the write times out having written nothing, and a later
// read gets nothing of it.
func TestPipeWriteDeadline(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	a.SetWriteDeadline(time.Now().Add(time.Millisecond))
	n, err := a.Write([]byte("lost"))
	if n != 0 || !os.IsTimeout(err) || err.Error() != "write pipe: i/o timeout" {
		t.Fatalf("write: %d, %v", n, err)
	}
	b.SetReadDeadline(time.Now().Add(time.Millisecond))
	if n, err := b.Read(make([]byte, 8)); n != 0 || !os.IsTimeout(err) {
		t.Errorf("read: %d, %v", n, err)
	}
}

// TestCloseUnblocksRead closes a connection while another goroutine
// reads from it: the read fails with net.ErrClosed, whichever comes
// first.
func TestCloseUnblocksRead(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("tcp4", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.(*net.TCPListener).AcceptTCP()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.SetNoDelay(true)
	done := make(chan error)
	go func() {
		_, err := c.Read(make([]byte, 1))
		done <- err
	}()
	c.Close()
	if err := <-done; !errors.Is(err, net.ErrClosed) {
		t.Errorf("read: %v", err)
	}
}

// TestPipe plays ping-pong over net.Pipe, whose writes wait for the
// reads.
func TestPipe(t *testing.T) {
	a, b := net.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4)
		for range 2 {
			n, err := b.Read(buf)
			if err != nil {
				t.Errorf("read: %v", err)
				return
			}
			if _, err := b.Write(append([]byte("re:"), buf[:n]...)); err != nil {
				t.Errorf("write: %v", err)
				return
			}
		}
		b.Close()
	}()
	buf := make([]byte, 16)
	for _, m := range []string{"a", "bc"} {
		if _, err := a.Write([]byte(m)); err != nil {
			t.Fatal(err)
		}
		n, err := a.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(buf[:n]); got != "re:"+m {
			t.Errorf("got %q, want %q", got, "re:"+m)
		}
	}
	if _, err := a.Read(buf); err != io.EOF {
		t.Errorf("read after the peer closed: %v, want EOF", err)
	}
	<-done
	a.Close()
}

// TestDialRefused dials a port nobody listens on any more.
func TestDialRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = net.Dial("tcp", addr)
	if err == nil || !strings.HasSuffix(err.Error(), "connect: connection refused") {
		t.Fatalf("dial: %v", err)
	}
	// an IPv4 listener does not take the dials to the IPv6 loopback
	l, err = net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	if _, err := net.Dial("tcp", net.JoinHostPort("::1", port)); err == nil {
		t.Errorf("dial [::1]:%s reached 127.0.0.1:%s", port, port)
	}
	c, err := net.Dial("tcp", net.JoinHostPort("localhost", port))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}

// TestUnix echoes over a Unix socket.
func TestUnix(t *testing.T) {
	l, err := net.Listen("unix", filepath.Join(t.TempDir(), "s.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	done := make(chan struct{})
	go echo(t, l, true, done)
	c, err := net.Dial("unix", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("hi")); err != nil {
		t.Fatal(err)
	}
	c.(*net.UnixConn).CloseWrite()
	b, err := io.ReadAll(c)
	if string(b) != "hi" || err != nil {
		t.Errorf("echo: %q, %v", b, err)
	}
	<-done
}

// TestHandoff publishes a value to the client through the connection:
// the write happens before the read that receives it, as for the race
// detector of go test -race.
func TestHandoff(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var shared int
	go func() {
		c, err := l.Accept()
		if err != nil {
			t.Errorf("accept: %v", err)
			return
		}
		defer c.Close()
		shared = 42
		c.Write([]byte{1})
	}()
	var d net.Dialer
	c, err := d.DialContext(context.Background(), "tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.ReadFull(c, make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	if shared != 42 {
		t.Errorf("shared = %d", shared)
	}
}

// TestHostPort uses the pure address helpers.
func TestHostPort(t *testing.T) {
	hp := net.JoinHostPort("::1", "80")
	host, port, err := net.SplitHostPort(hp)
	if hp != "[::1]:80" || host != "::1" || port != "80" || err != nil {
		t.Errorf("%q: %q %q %v", hp, host, port, err)
	}
}

// ServerForgetsClose has an echo server that never closes the
// connection: the client's read to EOF blocks forever.
func ServerForgetsClose(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go echo(t, l, false, done)
	roundTrip(t, l.Addr().String(), "hello")
	<-done
}

// Addresses reports the addresses of a listener and of both ends of a
// connection, and the errors of operations on closed ones.
func Addresses(t *testing.T) {
	l, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	_, rerr := c.Read(make([]byte, 1))
	l.Close()
	_, derr := net.Dial("tcp", l.Addr().String())
	t.Errorf("listener %v; client %v->%v; server %v->%v; %v; %v",
		l.Addr(), c.LocalAddr(), c.RemoteAddr(), s.LocalAddr(), s.RemoteAddr(), rerr, derr)
}

// DialRemote dials a host that is not a loopback address.
func DialRemote(t *testing.T) {
	if _, err := net.Dial("tcp", "192.0.2.1:80"); err == nil {
		t.Error("connected")
	}
}

// AcceptLeak returns without closing its listener: the server goroutine
// stays blocked in Accept.
func AcceptLeak(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}

// HandoffRace writes the shared value after the write that the client's
// read waits for: a data race.
func HandoffRace(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var shared int
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.Write([]byte{1})
		shared = 42
	}()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.ReadFull(c, make([]byte, 1))
	_ = shared
}

// NilUnixAddrNetwork calls Network on a nil *net.UnixAddr: Go panics with
// a nil dereference.
func NilUnixAddrNetwork(t *testing.T) {
	var a *net.UnixAddr
	t.Log(a.Network())
}
