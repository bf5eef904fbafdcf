package explore

import (
	"net"
	"strconv"
	"syscall"

	"golang.org/x/tools/go/ssa"
)

// Loopback networking between the goroutines of an execution.
//
// Package net is opaque; the model implements the loopback connections a
// test makes between its own goroutines, as it implements channels:
//
//   - net.Listen on "tcp", "tcp4", "tcp6" with a loopback or unspecified
//     host ("127.0.0.1:0", "localhost:0", ":0", "[::1]:0", or an explicit
//     port) or on "unix" (any path: no file is made), and the listener's
//     Accept, Close and Addr;
//   - net.Dial, net.DialTimeout, (*net.Dialer).Dial and DialContext to a
//     listener of the execution (by port, or by path for "unix"). A dial
//     never blocks (the kernel completes the handshake before Accept);
//     the timeout and the context are not consulted. A listener on a
//     loopback address takes the dials to that address, one on an
//     unspecified address the dials of its family ("tcp" on "[::]" or ""
//     takes both), and a dial to an empty or unspecified host reaches any
//     listener on its port. A dial nobody listens for fails with "connect:
//     connection refused"; a dial
//     to a host that is not a loopback or unspecified address is
//     unsupported;
//   - the connections' Read, Write, Close, LocalAddr, RemoteAddr,
//     SetDeadline, SetReadDeadline, SetWriteDeadline and CloseWrite;
//   - net.Pipe, synchronous as Go's: a Write returns once Reads have
//     consumed all of it (or on a deadline or a close);
//   - the error values: *net.OpError (Error, Unwrap, Timeout, Temporary),
//     net.ErrClosed, os.ErrDeadlineExceeded, *os.SyscallError and
//     syscall.Errno, with Go's messages ("read tcp
//     127.0.0.1:40002->127.0.0.1:40001: i/o timeout");
//   - net.JoinHostPort and net.SplitHostPort (native pure functions).
//
// Ports are assigned per execution from a counter: the first is 40001,
// so addresses, output and replay are deterministic.
//
// A TCP connection buffers without bound: a Write never blocks, and a
// Read blocks until bytes are available, the peer closed its side
// (io.EOF once the bytes are read), the reader's connection is closed, or
// the read deadline passes (an *OpError whose Timeout is true, wrapping
// os.ErrDeadlineExceeded). A Read returns all the bytes available up to
// len(p): shorter reads, which TCP allows too, are not explored. Writing
// to a connection whose peer closed succeeds (the bytes are dropped);
// writing after CloseWrite fails with "broken pipe". Closing a listener
// closes the connections dialled to it and not yet accepted. Deadlines
// are virtual times (clock.go): a goroutine blocked with a deadline lets
// the clock advance to it, as a sleeper does.
//
// Each operation that changes or waits for a connection's state is a
// scheduling point (opNet): connection set-up (Listen, Dial, Accept, a
// listener's Close) accesses one pseudo-object, netObj; the operations on
// a connection access its own, shared by its two ends; an operation on a
// connection with a deadline also conflicts with the clock. A goroutine
// blocked forever on Accept or Read is a deadlock, or a leak, as one
// blocked on a channel receive.
//
// Race detection follows Go's race runtime, which orders every system
// call that writes to a file descriptor before every later successful
// read (syscall's ioSync): a Write releases the execution's I/O clock, a
// Read that does not fail acquires it. A Pipe orders its two ends as the
// channels of Go's implementation do.

// netFirstPort is the port before the first one an execution assigns.
const netFirstPort = 40000

// netObj is the pseudo-object connection set-up accesses.
var netObj = evKey{id: 1<<63 | 0x4e7e, off: -6}

// netState is the net model's per-execution state.
type netState struct {
	port      int            // the last port assigned
	listeners []*netListener // in creation order, open or closed
	conns     int            // connections made, for their keys
	ioSync    vclock         // the race detector's I/O clock
}

// snapshot carries nothing, and refuses once the state holds a listener
// or a connection (their objects would outlive the snapshot's memory).
func (st *netState) snapshot() (modelState, bool) {
	return nil, len(st.listeners) == 0 && st.conns == 0
}

func (st *netState) release() {}

// newConnKey counts a new connection and returns its pseudo-object.
func (st *netState) newConnKey() evKey {
	st.conns++
	return evKey{id: mix(0x4e7e_c0, uint64(st.conns)), off: -6}
}

func (x *execution) netState() *netState { return x.modelState(netSlot).(*netState) }

// netListener is a listener's state. Invariant: backlog holds the server
// ends of the connections dialled to it and not accepted yet, none of
// them closed, and is empty once the listener is closed.
type netListener struct {
	network string
	addr    net.Addr // *net.TCPAddr or *net.UnixAddr
	val     Value    // the interpreter's value of addr (Addr's result)
	closed  bool
	backlog []*netConn
}

// netStream is the bytes one end of a connection wrote and the other has
// not read yet.
type netStream struct {
	data []byte
	eof  bool  // the writer closed its side: reads end after data
	read int64 // bytes read from the stream so far (Pipe's writers wait for them)
	sent int64 // bytes written to the stream so far
	// vc is the race detector's release clock of the stream: the Dial
	// that made it (for the Accept), a Pipe's writes and reads
	vc vclock
}

// netConn is one end of a connection. in is what the peer wrote, out is
// the peer's in.
type netConn struct {
	network      string // "tcp"…, "unix" or "pipe"
	in, out      *netStream
	laddr, raddr net.Addr // nil for a Pipe's ends
	lval, rval   Value
	closed       bool
	wclosed      bool  // CloseWrite was called
	readDL       int64 // virtual read deadline, 0 for none
	writeDL      int64
	timed        bool  // a deadline was set: the operations conflict with the clock
	pipe         bool  // an end of net.Pipe: writes wait for reads
	key          evKey // the connection's pseudo-object, shared by both ends
}

// desc describes the end for the labels of its operations.
func (nc *netConn) desc() string {
	if nc.pipe {
		return "pipe"
	}
	return nc.laddr.String() + "->" + nc.raddr.String()
}

// netWait is what an operation blocked on the network waits for: a
// connection on a listener (Accept), bytes, EOF or a close on a
// connection (Read), the reads of what a Pipe's end wrote (Write: until
// the stream's read count reaches upto).
type netWait struct {
	ln    *netListener
	conn  *netConn
	write bool
	upto  int64
	empty bool // a Read of no bytes: it does not wait for data
}

// ready reports whether the operation can complete now (deadlines
// aside: see deadline).
func (w *netWait) ready() bool {
	if w.ln != nil {
		return w.ln.closed || len(w.ln.backlog) > 0
	}
	nc := w.conn
	if nc.closed {
		return true
	}
	if w.write {
		return nc.out.read >= w.upto || nc.peerGone()
	}
	return w.empty || len(nc.in.data) > 0 || nc.in.eof
}

// peerGone reports whether a Pipe's peer closed (its writer waits no
// longer).
func (nc *netConn) peerGone() bool { return nc.pipe && nc.in.eof }

// deadline is the operation's virtual deadline, 0 for none.
func (w *netWait) deadline() int64 {
	switch {
	case w.conn == nil:
		return 0
	case w.write:
		return w.conn.writeDL
	}
	return w.conn.readDL
}

// expired reports whether the deadline d (0: none) has passed.
func (x *execution) expired(d int64) bool { return d != 0 && x.clock >= d }

// netDeadline returns the earliest deadline after the clock of an
// operation blocked on the network, 0 if none.
func (x *execution) netDeadline() int64 {
	if x.models[netSlot] == nil {
		return 0 // no net operation yet: the common case, kept cheap
	}
	var next int64
	for _, g := range x.gs {
		if g.done || g.pend.kind != opNet || g.pend.net == nil || g.pend.net.ready() {
			continue
		}
		if d := g.pend.net.deadline(); d > x.clock && (next == 0 || d < next) {
			next = d
		}
	}
	return next
}

// netYield parks the calling goroutine at a net operation on the
// connection nc (nil: connection set-up), waiting for w if it is not nil;
// the operation conflicts with the clock if clocked, or if nc has had a
// deadline (pendingOp.write). It reports true if the intrinsic must
// return ctrlYield.
func (c *icall) netYield(nc *netConn, w *netWait, clocked bool) bool {
	label := c.name()
	if c.fn != nil && c.fn.fn != nil {
		label = funcName(c.fn.fn) // as Go's stacks name it: net.(*TCPConn).Read
	}
	p := pendingOp{kind: opNet, key: netObj, label: label, net: w, write: clocked}
	if nc != nil {
		p.key, p.label = nc.key, label+" on "+nc.desc()
		p.write = clocked || nc.timed
	}
	return c.yield(p)
}

// recvSide returns the model state of the receiver of a method (its
// side state of type *T), nil if the receiver is nil or the models did
// not make it.
func recvSide[T any](c *icall) *T {
	if c.args[0].p == nil {
		return nil
	}
	v, _ := c.x().side[objKeyOf(c.args[0].obj(), -1)].(*T)
	return v
}

// connMethod is the intrinsic of a method of a connection end: f with the
// receiver's state; a receiver the net model did not make is unsupported.
func connMethod(f func(c *icall, nc *netConn) ctrl) intrinsicFactory {
	return simple(func(c *icall) ctrl {
		nc := recvSide[netConn](c)
		if nc == nil {
			return c.g.unsupported(c.pos, "%s on a connection the net model did not make", c.name())
		}
		return f(c, nc)
	})
}

// listenerMethod is connMethod for the methods of a listener.
func listenerMethod(f func(c *icall, ln *netListener) ctrl) intrinsicFactory {
	return simple(func(c *icall) ctrl {
		ln := recvSide[netListener](c)
		if ln == nil {
			return c.g.unsupported(c.pos, "%s on a listener the net model did not make", c.name())
		}
		return f(c, ln)
	})
}

// newConnObject returns the interpreter's *net.TCPConn or *net.UnixConn
// (by nc's network) whose state is nc, as an interface value.
func (c *icall) newConnObject(nc *netConn) Value {
	if nc.network == "unix" {
		return c.sideObject("net", "UnixConn", nc)
	}
	return c.sideObject("net", "TCPConn", nc)
}

// addrValue returns the interpreter's value of the address a (a
// *net.TCPAddr or *net.UnixAddr), as a net.Addr.
func (c *icall) addrValue(a net.Addr) Value {
	if a, ok := a.(*net.TCPAddr); ok {
		v, _ := c.newStructPtr("net", "TCPAddr", []string{"IP", "Port", "Zone"}, bytesToSlice(a.IP), intV(int64(a.Port)), strV(a.Zone))
		return v
	}
	ua := a.(*net.UnixAddr)
	v, _ := c.newStructPtr("net", "UnixAddr", []string{"Name", "Net"}, strV(ua.Name), strV(ua.Net))
	return v
}

// newStructPtr returns a fresh *pkg.typ whose fields names hold vals (a
// field the type lacks is left out), as an interface value, and its
// memory.
func (c *icall) newStructPtr(pkg, typ string, names []string, vals ...Value) (Value, *object) {
	m := c.m()
	pt := m.ptrTo(pkg, typ)
	o := &object{cells: make([]Value, max(1, pt.elem.size)), id: c.g.newID(), owner: c.g.key}
	for i, f := range names {
		if off, ok := m.cellOffset(pt.elem.T, f); ok {
			o.cells[off] = vals[i]
		}
	}
	return ifaceV(pt, ptrV(o, 0)), o
}

// tcpAddrMethod is the intrinsic of a method of *net.TCPAddr: f of the
// native address its receiver holds (nil for a nil receiver).
func tcpAddrMethod(f func(c *icall, a *net.TCPAddr) ctrl) intrinsicFactory {
	return func(m *machine, _ *ssa.Function) intrinsic {
		off := m.fieldOffs("net", "TCPAddr", "IP", "Port", "Zone")
		return func(c *icall) ctrl {
			v := c.args[0]
			if v.p == nil {
				return f(c, nil)
			}
			cells := v.obj().cells[v.off():]
			return f(c, &net.TCPAddr{IP: net.IP(sliceBytes(cells[off[0]])), Port: int(cells[off[1]].Int()), Zone: cells[off[2]].Str()})
		}
	}
}

// unixAddrMethod is tcpAddrMethod for *net.UnixAddr.
func unixAddrMethod(f func(c *icall, a *net.UnixAddr) ctrl) intrinsicFactory {
	return func(m *machine, _ *ssa.Function) intrinsic {
		off := m.fieldOffs("net", "UnixAddr", "Name", "Net")
		return func(c *icall) ctrl {
			v := c.args[0]
			if v.p == nil {
				return f(c, nil)
			}
			cells := v.obj().cells[v.off():]
			return f(c, &net.UnixAddr{Name: cells[off[0]].Str(), Net: cells[off[1]].Str()})
		}
	}
}

// netErr describes an error the model made: its message and whether it
// is a timeout.
type netErr struct {
	msg     string
	timeout bool
}

// opError returns a *net.OpError of operation op on network, from the
// address source (srcA natively; nil for none) to addr (addrA), wrapping
// err, whose message is errMsg; its Error, Timeout and Temporary methods
// answer from the message it computes here as Go's does, and timeout.
func (c *icall) opError(op, network string, source, addr Value, srcA, addrA net.Addr, err Value, errMsg string, timeout bool) Value {
	v, o := c.newStructPtr("net", "OpError", []string{"Op", "Net", "Source", "Addr", "Err"}, strV(op), strV(network), source, addr, err)
	msg := op
	if network != "" {
		msg += " " + network
	}
	if srcA != nil {
		msg += " " + srcA.String()
	}
	if addrA != nil {
		if srcA != nil {
			msg += "->"
		} else {
			msg += " "
		}
		msg += addrA.String()
	}
	msg += ": " + errMsg
	c.x().setSide(o, -1, &netErr{msg: msg, timeout: timeout})
	return v
}

// connError is the *net.OpError of operation op on the connection end nc
// wrapping err (message errMsg).
func (c *icall) connError(op string, nc *netConn, err Value, errMsg string, timeout bool) Value {
	if nc.pipe {
		return c.opError(op, "pipe", Value{}, Value{}, nil, nil, err, errMsg, timeout)
	}
	return c.opError(op, nc.network, nc.lval, nc.rval, nc.laddr, nc.raddr, err, errMsg, timeout)
}

// globalValue returns the value of the package variable pkg.name, the
// zero Value if the program does not have it.
func (m *machine) globalValue(pkg, name string) Value {
	if g := m.globalByName(pkg, name); g != nil {
		return m.global(g).cells[0]
	}
	return Value{}
}

// errClosed is net.ErrClosed's value.
func (c *icall) errClosed() Value { return c.m().globalValue("net", "ErrClosed") }

// errTimeout is os.ErrDeadlineExceeded's value.
func (c *icall) errTimeout() Value { return c.m().globalValue("os", "ErrDeadlineExceeded") }

// syscallError returns an *os.SyscallError of call wrapping errno.
func (c *icall) syscallError(call string, errno syscall.Errno) Value {
	v, _ := c.newStructPtr("os", "SyscallError", []string{"Syscall", "Err"}, strV(call), c.m().errnoValue(errno))
	return v
}

// netHostIP returns the IP a listener on host listens on, or a dial to
// host reaches: ok is false if host is not a loopback or unspecified
// address.
func netHostIP(network, host string) (ip net.IP, ok bool) {
	switch host {
	case "":
		if network == "tcp4" {
			return net.IPv4zero, true
		}
		return net.IPv6unspecified, true
	case "localhost":
		if network == "tcp6" {
			return net.IPv6loopback, true
		}
		return net.IPv4(127, 0, 0, 1), true
	}
	ip = net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() && !ip.IsUnspecified() {
		return nil, false
	}
	return ip, true
}

// loopbackOf is the loopback address a connection to ip uses.
func loopbackOf(ip net.IP) net.IP {
	switch {
	case ip.IsLoopback():
		return ip
	case ip.To4() != nil:
		return net.IPv4(127, 0, 0, 1)
	}
	return net.IPv6loopback
}

// isTCP reports whether network is one of the TCP networks.
func isTCP(network string) bool { return network == "tcp" || network == "tcp4" || network == "tcp6" }

// netListen is net.Listen(network, address).
func netListen(c *icall) ctrl {
	network, address := c.args[0].Str(), c.args[1].Str()
	var addr net.Addr
	switch {
	case isTCP(network):
		host, port, err := net.SplitHostPort(address)
		if err != nil {
			return c.g.unsupported(c.pos, "net.Listen(%q, %q): %v", network, address, err)
		}
		ip, ok := netHostIP(network, host)
		p, perr := strconv.Atoi(port)
		if !ok || perr != nil || p < 0 || p > 65535 {
			return c.g.unsupported(c.pos, "net.Listen(%q, %q): only loopback listeners are modelled", network, address)
		}
		addr = &net.TCPAddr{IP: ip, Port: p}
	case network == "unix":
		addr = &net.UnixAddr{Name: address, Net: "unix"}
	default:
		return c.g.unsupported(c.pos, "net.Listen(%q, %q): only tcp and unix listeners are modelled", network, address)
	}
	if c.netYield(nil, nil, false) {
		return ctrlYield
	}
	st := c.x().netState()
	if c.listening(network, addr) != nil {
		bind := c.syscallError("bind", syscall.EADDRINUSE)
		return c.retN(Value{}, c.opError("listen", network, Value{}, c.addrValue(addr), nil, addr, bind, "bind: "+syscall.EADDRINUSE.Error(), false))
	}
	if ta, ok := addr.(*net.TCPAddr); ok && ta.Port == 0 {
		for st.port++; c.listening(network, &net.TCPAddr{Port: netFirstPort + st.port}) != nil; st.port++ {
		}
		ta.Port = netFirstPort + st.port
	}
	ln := &netListener{network: network, addr: addr}
	ln.val = c.addrValue(addr)
	st.listeners = append(st.listeners, ln)
	name := "TCPListener"
	if network == "unix" {
		name = "UnixListener"
	}
	return c.retN(c.sideObject("net", name, ln), Value{})
}

// reaches reports whether a dial to the loopback address ip reaches the
// TCP listener ln: a listener on an unspecified address takes the dials
// of its family ("tcp" on "[::]" takes both), one on a loopback address
// the dials to that address.
func (ln *netListener) reaches(ip net.IP) bool {
	lip := ln.addr.(*net.TCPAddr).IP
	switch {
	case lip.Equal(net.IPv6unspecified) && ln.network != "tcp6":
		return true
	case lip.IsUnspecified():
		return (lip.To4() != nil) == (ip.To4() != nil)
	}
	return lip.Equal(ip)
}

// listening returns the open listener on addr's port (or path), nil if
// none.
func (c *icall) listening(network string, addr net.Addr) *netListener {
	for _, ln := range c.x().netState().listeners {
		if ln.closed || isTCP(ln.network) != isTCP(network) {
			continue
		}
		switch a := addr.(type) {
		case *net.TCPAddr:
			if a.Port != 0 && ln.addr.(*net.TCPAddr).Port == a.Port {
				return ln
			}
		case *net.UnixAddr:
			if ln.addr.(*net.UnixAddr).Name == a.Name {
				return ln
			}
		}
	}
	return nil
}

// netDial dials address on network (the arguments from index i): the
// client's end of a new connection, whose server end waits in the
// listener's backlog.
func netDial(i int) intrinsic {
	return func(c *icall) ctrl {
		network, address := c.args[i].Str(), c.args[i+1].Str()
		var raddr, laddr net.Addr
		unspecified := false // the host is empty or an unspecified address
		switch {
		case isTCP(network):
			host, port, err := net.SplitHostPort(address)
			if err != nil {
				return c.g.unsupported(c.pos, "%s(%q, %q): %v", c.name(), network, address, err)
			}
			ip, ok := netHostIP(network, host)
			p, perr := strconv.Atoi(port)
			if !ok || perr != nil {
				return c.g.unsupported(c.pos, "%s(%q, %q): only loopback connections to listeners of the test are modelled", c.name(), network, address)
			}
			raddr = &net.TCPAddr{IP: loopbackOf(ip), Port: p}
			unspecified = ip.IsUnspecified()
		case network == "unix":
			raddr = &net.UnixAddr{Name: address, Net: "unix"}
			laddr = &net.UnixAddr{Name: "@", Net: "unix"}
		default:
			return c.g.unsupported(c.pos, "%s(%q, %q): only tcp and unix connections are modelled", c.name(), network, address)
		}
		if c.netYield(nil, nil, false) {
			return ctrlYield
		}
		x := c.x()
		st := x.netState()
		ln := c.listening(network, raddr)
		if ta, ok := raddr.(*net.TCPAddr); ok && ln != nil {
			switch lip := ln.addr.(*net.TCPAddr).IP; {
			case unspecified:
				// the local system: the listener's loopback address
				ta.IP = loopbackOf(lip)
			case !ln.reaches(ta.IP):
				ln = nil
			}
		}
		if ln == nil {
			errno := syscall.ECONNREFUSED
			if network == "unix" {
				errno = syscall.ENOENT
			}
			return c.retN(Value{}, c.opError("dial", network, Value{}, c.addrValue(raddr), nil, raddr, c.syscallError("connect", errno), "connect: "+errno.Error(), false))
		}
		if ta, ok := raddr.(*net.TCPAddr); ok {
			st.port++
			laddr = &net.TCPAddr{IP: ta.IP, Port: netFirstPort + st.port}
		}
		key := st.newConnKey()
		a, b := &netStream{}, &netStream{}
		client := &netConn{network: network, in: a, out: b, laddr: laddr, raddr: raddr, key: key}
		server := &netConn{network: network, in: b, out: a, laddr: raddr, raddr: laddr, key: key}
		if ua, ok := raddr.(*net.UnixAddr); ok {
			server.laddr = ua
		}
		client.lval, client.rval = c.addrValue(client.laddr), c.addrValue(client.raddr)
		server.lval, server.rval = c.addrValue(server.laddr), c.addrValue(server.raddr)
		ln.backlog = append(ln.backlog, server)
		if x.race != nil {
			c.g.release(&b.vc)
		}
		return c.retN(c.newConnObject(client), Value{})
	}
}

// netAccept is a listener's Accept.
func netAccept(c *icall, ln *netListener) ctrl {
	if c.netYield(nil, &netWait{ln: ln}, false) {
		return ctrlYield
	}
	if ln.closed {
		return c.retN(Value{}, c.opError("accept", ln.network, Value{}, ln.val, nil, ln.addr, c.errClosed(), net.ErrClosed.Error(), false))
	}
	nc := ln.backlog[0]
	ln.backlog = ln.backlog[1:]
	if c.x().race != nil {
		c.g.acquire(nc.in.vc)
	}
	return c.retN(c.newConnObject(nc), Value{})
}

// netListenerClose is a listener's Close: the connections waiting in its
// backlog are closed.
func netListenerClose(c *icall, ln *netListener) ctrl {
	if c.netYield(nil, nil, false) {
		return ctrlYield
	}
	if ln.closed {
		return c.ret(c.opError("close", ln.network, Value{}, ln.val, nil, ln.addr, c.errClosed(), net.ErrClosed.Error(), false))
	}
	ln.closed = true
	for _, nc := range ln.backlog {
		nc.closed = true
		nc.out.eof = true
	}
	ln.backlog = nil
	return c.ret(Value{})
}

// netRead is a connection's Read.
func netRead(c *icall, nc *netConn) ctrl {
	p := c.args[1]
	if c.netYield(nc, &netWait{conn: nc, empty: p.sliceLen() == 0 && !nc.pipe}, false) {
		return ctrlYield
	}
	x := c.x()
	if nc.closed {
		if nc.pipe {
			return c.retN(intV(0), c.m().globalValue("io", "ErrClosedPipe"))
		}
		return c.retN(intV(0), c.connError("read", nc, c.errClosed(), net.ErrClosed.Error(), false))
	}
	if x.expired(nc.readDL) {
		return c.retN(intV(0), c.connError("read", nc, c.errTimeout(), "i/o timeout", true))
	}
	in := nc.in
	n := min(p.sliceLen(), len(in.data))
	if n == 0 && len(in.data) == 0 && in.eof {
		if x.race != nil && !nc.pipe {
			c.g.acquire(x.netState().ioSync)
		}
		return c.retN(intV(0), c.m().globalValue("io", "EOF"))
	}
	cells := p.obj().cells[p.off():]
	for i := range n {
		cells[i] = Value{a: uint64(in.data[i])}
	}
	in.data = in.data[n:]
	in.read += int64(n)
	if x.race != nil {
		if nc.pipe {
			c.g.acquire(in.vc)
			c.g.release(&in.vc)
		} else {
			c.g.acquire(x.netState().ioSync)
		}
	}
	return c.retN(intV(int64(n)), Value{})
}

// netWrite is a connection's Write. On a Pipe it has two scheduling
// points: the bytes are made available (phase 0), then the writer waits
// until they are read (phase 1).
func netWrite(c *icall, nc *netConn) ctrl {
	g, x := c.g, c.x()
	b := sliceBytes(c.args[1])
	out := nc.out
	if nc.pipe && g.phase > 0 {
		// phase is 1 + the stream's byte count once this write's bytes
		// are in
		upto := int64(g.phase - 1)
		if c.netYield(nc, &netWait{conn: nc, write: true, upto: upto}, false) {
			return ctrlYield
		}
		g.phase = 0
		start := upto - int64(len(b))
		n := int64(len(b))
		if out.read < upto {
			n = max(out.read-start, 0)
			if out.sent == upto {
				// take back what was not read
				out.data = out.data[:len(out.data)-int(upto-max(out.read, start))]
				out.sent = max(out.read, start)
			}
		}
		if x.race != nil {
			g.acquire(out.vc)
		}
		switch {
		case n == int64(len(b)):
			return c.retN(intV(n), Value{})
		case nc.closed || nc.peerGone():
			return c.retN(intV(n), c.m().globalValue("io", "ErrClosedPipe"))
		}
		return c.retN(intV(n), c.connError("write", nc, c.errTimeout(), "i/o timeout", true))
	}
	if c.netYield(nc, nil, false) {
		return ctrlYield
	}
	switch {
	case nc.closed && nc.pipe, nc.pipe && nc.peerGone():
		return c.retN(intV(0), c.m().globalValue("io", "ErrClosedPipe"))
	case nc.closed:
		return c.retN(intV(0), c.connError("write", nc, c.errClosed(), net.ErrClosed.Error(), false))
	case x.expired(nc.writeDL):
		return c.retN(intV(0), c.connError("write", nc, c.errTimeout(), "i/o timeout", true))
	case nc.wclosed:
		return c.retN(intV(0), c.connError("write", nc, c.syscallError("write", syscall.EPIPE), "write: "+syscall.EPIPE.Error(), false))
	}
	out.data = append(out.data, b...)
	out.sent += int64(len(b))
	if nc.pipe {
		if x.race != nil {
			g.release(&out.vc)
		}
		if len(b) == 0 {
			return c.retN(intV(0), Value{})
		}
		g.phase = 1 + int(out.sent)
		return netWrite(c, nc)
	}
	if x.race != nil {
		g.release(&x.netState().ioSync)
	}
	return c.retN(intV(int64(len(b))), Value{})
}

// netClose is a connection's Close.
func netClose(c *icall, nc *netConn) ctrl {
	if c.netYield(nc, nil, false) {
		return ctrlYield
	}
	if nc.closed {
		if nc.pipe {
			return c.ret(c.m().globalValue("io", "ErrClosedPipe"))
		}
		return c.ret(c.connError("close", nc, c.errClosed(), net.ErrClosed.Error(), false))
	}
	nc.closed = true
	nc.out.eof = true
	if c.x().race != nil {
		c.g.release(&nc.out.vc)
	}
	return c.ret(Value{})
}

// netCloseWrite is (*net.TCPConn).CloseWrite and (*net.UnixConn).CloseWrite.
func netCloseWrite(c *icall, nc *netConn) ctrl {
	if c.netYield(nc, nil, false) {
		return ctrlYield
	}
	if nc.closed {
		return c.ret(c.connError("close", nc, c.errClosed(), net.ErrClosed.Error(), false))
	}
	nc.wclosed = true
	nc.out.eof = true
	return c.ret(Value{})
}

// netSetDeadline sets the read deadline, the write deadline or both
// (SetReadDeadline, SetWriteDeadline, SetDeadline).
func netSetDeadline(read, write bool) intrinsicFactory {
	return connMethod(func(c *icall, nc *netConn) ctrl {
		if c.netYield(nc, nil, true) {
			return ctrlYield
		}
		nc.timed = true
		if nc.closed {
			if nc.pipe {
				return c.ret(c.m().globalValue("io", "ErrClosedPipe"))
			}
			return c.ret(c.opError("set", nc.network, Value{}, nc.lval, nil, nc.laddr, c.errClosed(), net.ErrClosed.Error(), false))
		}
		d := virtualTime(c.args[1])
		if read {
			nc.readDL = d
		}
		if write {
			nc.writeDL = d
		}
		return c.ret(Value{})
	})
}

// virtualTime converts a time.Time value to the clock's nanoseconds since
// the Unix epoch; the zero Time is 0.
func virtualTime(t Value) int64 {
	cells := t.obj().cells[t.off():]
	wall, ext := cells[0].a, int64(cells[1].a)
	const (
		hasMonotonic   = 1 << 63
		nsecMask       = 1<<30 - 1
		secondsPerDay  = 86400
		wallToInternal = (1884*365 + 1884/4 - 1884/100 + 1884/400) * secondsPerDay
	)
	if wall == 0 && ext == 0 {
		return 0
	}
	var sec int64
	if wall&hasMonotonic != 0 {
		sec = int64(wall<<1>>31) + wallToInternal
	} else {
		sec = ext
	}
	return (sec-unixToInternal)*1e9 + int64(wall&nsecMask)
}

// self is the receiver of the called method as an interface value.
func (c *icall) self() Value {
	return ifaceV(c.m().rtypeOf(c.sig().Recv().Type()), c.args[0])
}

// netCopyBuf is the size of netCopy's buffer.
const netCopyBuf = 8 << 10

// netCopy copies from src to dst (interface values) until src's EOF,
// calling their Read and Write methods, as io.Copy does without its
// WriterTo and ReaderFrom shortcuts: it is (*net.TCPConn).WriteTo (src
// the receiver) and ReadFrom (dst the receiver).
func netCopy(c *icall, dst, src Value) ctrl {
	m := c.m()
	if dst.p == nil || src.p == nil {
		return c.nilPanic()
	}
	d, s := dst.iface(), src.iface()
	rd, wr := m.methodNamed(s.t, "Read"), m.methodNamed(d.t, "Write")
	if rd == nil || wr == nil {
		return c.g.unsupported(c.pos, "%s: no Read or Write method", c.name())
	}
	buf := bytesToSlice(make([]byte, netCopyBuf))
	eof := m.globalValue("io", "EOF")
	var total int64
	for {
		res, cc := c.g.callNested(funcV(rd.self), []Value{s.v, buf})
		if cc != ctrlNext {
			return cc
		}
		n, rerr := res.obj().cells[0].Int(), res.obj().cells[1]
		if n > 0 {
			res, cc := c.g.callNested(funcV(wr.self), []Value{d.v, sliceV(buf.obj(), buf.off(), int(n), netCopyBuf)})
			if cc != ctrlNext {
				return cc
			}
			nw, werr := res.obj().cells[0].Int(), res.obj().cells[1]
			total += nw
			switch {
			case werr.p != nil:
				return c.retN(intV(total), werr)
			case nw != n:
				return c.retN(intV(total), m.globalValue("io", "ErrShortWrite"))
			}
		}
		if rerr.p != nil {
			if isEOF, _ := equal(m.errorIface, rerr, eof); isEOF {
				return c.retN(intV(total), Value{})
			}
			return c.retN(intV(total), rerr)
		}
	}
}

// netPipe is net.Pipe.
func netPipe(c *icall) ctrl {
	st := c.x().netState()
	key := st.newConnKey()
	a, b := &netStream{}, &netStream{}
	p1 := &netConn{network: "pipe", in: a, out: b, pipe: true, key: key}
	p2 := &netConn{network: "pipe", in: b, out: a, pipe: true, key: key}
	return c.retN(c.sideObject("net", "pipe", p1), c.sideObject("net", "pipe", p2))
}

// netErrOf returns what the model knows of the *net.OpError receiver.
func (c *icall) netErrOf() *netErr { return recvSide[netErr](c) }

// netModel is the model of package net's loopback connections and of the
// error values they return (os.ErrDeadlineExceeded, *os.SyscallError;
// syscall.Errno's methods are the file errors' model's).
func netModel() model {
	funcs := map[string]intrinsicFactory{
		"net.Listen":                 simple(netListen),
		"net.Dial":                   simple(netDial(0)),
		"net.DialTimeout":            simple(netDial(0)),
		"(*net.Dialer).Dial":         simple(netDial(1)),
		"(*net.Dialer).DialContext":  simple(netDial(2)),
		"net.Pipe":                   simple(netPipe),
		"(*net.TCPListener).Accept":  listenerMethod(netAccept),
		"(*net.TCPListener).Close":   listenerMethod(netListenerClose),
		"(*net.UnixListener).Accept": listenerMethod(netAccept),
		"(*net.UnixListener).Close":  listenerMethod(netListenerClose),
		"(*net.TCPConn).CloseWrite":  connMethod(netCloseWrite),
		"(*net.UnixConn).CloseWrite": connMethod(netCloseWrite),
		"(*net.TCPAddr).String":      tcpAddrMethod(func(c *icall, a *net.TCPAddr) ctrl { return c.ret(strV(a.String())) }),
		"(*net.TCPAddr).Network":     simple(func(c *icall) ctrl { return c.ret(strV("tcp")) }),
		"(*net.UnixAddr).String":     unixAddrMethod(func(c *icall, a *net.UnixAddr) ctrl { return c.ret(strV(a.String())) }),
		"(*net.UnixAddr).Network": unixAddrMethod(func(c *icall, a *net.UnixAddr) ctrl {
			if a == nil {
				return c.nilPanic() // Network reads a.Net
			}
			return c.ret(strV(a.Net))
		}),
		"(net.pipeAddr).String":                            simple(func(c *icall) ctrl { return c.ret(strV("pipe")) }),
		"(net.pipeAddr).Network":                           simple(func(c *icall) ctrl { return c.ret(strV("pipe")) }),
		"(*net.OpError).Unwrap":                            recvField("net", "OpError", "Err"),
		"(*net.OpError).Error":                             simple(netErrMethod(false)),
		"(*net.OpError).Timeout":                           simple(netErrMethod(true)),
		"(*net.OpError).Temporary":                         simple(netErrMethod(true)),
		"(*os.SyscallError).Unwrap":                        recvField("os", "SyscallError", "Err"),
		"(*os.SyscallError).Error":                         syscallErrorString,
		"(*os.SyscallError).Timeout":                       simple(func(c *icall) ctrl { return c.ret(boolV(false)) }),
		"(internal/poll.errNetClosing).Error":              simple(func(c *icall) ctrl { return c.ret(strV(net.ErrClosed.Error())) }),
		"(internal/poll.errNetClosing).Timeout":            simple(func(c *icall) ctrl { return c.ret(boolV(false)) }),
		"(internal/poll.errNetClosing).Temporary":          simple(func(c *icall) ctrl { return c.ret(boolV(false)) }),
		"(*internal/poll.DeadlineExceededError).Error":     simple(func(c *icall) ctrl { return c.ret(strV("i/o timeout")) }),
		"(*internal/poll.DeadlineExceededError).Timeout":   simple(func(c *icall) ctrl { return c.ret(boolV(true)) }),
		"(*internal/poll.DeadlineExceededError).Temporary": simple(func(c *icall) ctrl { return c.ret(boolV(true)) }),
	}
	for _, t := range []string{"(*net.TCPConn)", "(*net.UnixConn)", "(*net.conn)", "(*net.pipe)"} {
		funcs[t+".Read"] = connMethod(netRead)
		funcs[t+".Write"] = connMethod(netWrite)
		funcs[t+".Close"] = connMethod(netClose)
		funcs[t+".LocalAddr"] = connMethod(func(c *icall, nc *netConn) ctrl { return c.netAddrResult(nc, true) })
		funcs[t+".RemoteAddr"] = connMethod(func(c *icall, nc *netConn) ctrl { return c.netAddrResult(nc, false) })
		funcs[t+".SetDeadline"] = netSetDeadline(true, true)
		funcs[t+".SetReadDeadline"] = netSetDeadline(true, false)
		funcs[t+".SetWriteDeadline"] = netSetDeadline(false, true)
	}
	for _, f := range []string{"SetNoDelay", "SetKeepAlive", "SetKeepAlivePeriod", "SetKeepAliveConfig", "SetLinger"} {
		// options without an effect on loopback connections in memory
		funcs["(*net.TCPConn)."+f] = connMethod(func(c *icall, _ *netConn) ctrl { return c.ret(Value{}) })
	}
	funcs["(*net.TCPListener).AcceptTCP"] = listenerMethod(func(c *icall, ln *netListener) ctrl {
		cc := netAccept(c, ln)
		if cc == ctrlNext && c.dst >= 0 {
			// the *net.TCPConn in the net.Conn
			res := c.fr.regs[c.dst].obj().cells
			if res[0].p != nil {
				res[0] = res[0].iface().v
			}
		}
		return cc
	})
	funcs["(net.IP).String"] = simple(func(c *icall) ctrl { return c.ret(strV(net.IP(sliceBytes(c.args[0])).String())) })
	funcs["os.IsTimeout"] = simple(osIsTimeout)
	funcs["(*net.TCPConn).WriteTo"] = nests(simple(func(c *icall) ctrl { return netCopy(c, c.args[1], c.self()) }), false)
	funcs["(*net.TCPConn).ReadFrom"] = nests(simple(func(c *icall) ctrl { return netCopy(c, c.self(), c.args[1]) }), false)
	for _, t := range []string{"(*net.TCPListener)", "(*net.UnixListener)"} {
		funcs[t+".Addr"] = listenerMethod(func(c *icall, ln *netListener) ctrl { return c.ret(ln.val) })
	}
	return model{
		funcs: funcs,
		natives: map[string]any{
			"net.JoinHostPort":  net.JoinHostPort,
			"net.SplitHostPort": net.SplitHostPort,
		},
		globals: map[string]globalFactory{
			"net.ErrClosed": func(m *machine, _ *ssa.Global) globalInit {
				return func(_ *execution, o *object) {
					if rt := m.rtypeOf(m.named("internal/poll", "errNetClosing")); rt != nil {
						o.cells[0] = ifaceV(rt, rt.zero)
					}
				}
			},
			"os.ErrDeadlineExceeded": func(m *machine, _ *ssa.Global) globalInit {
				return func(_ *execution, o *object) {
					if pt := m.ptrTo("internal/poll", "DeadlineExceededError"); pt != nil {
						o.cells[0] = ifaceV(pt, ptrV(newObject(1), 0))
					}
				}
			},
		},
		slot:     netSlot,
		newState: func(*execution) modelState { return &netState{} },
	}
}

// netAddrResult returns a connection end's local (or remote) address.
func (c *icall) netAddrResult(nc *netConn, local bool) ctrl {
	if nc.pipe {
		rt := c.m().rtypeOf(c.m().named("net", "pipeAddr"))
		return c.ret(ifaceV(rt, rt.zero))
	}
	if local {
		return c.ret(nc.lval)
	}
	return c.ret(nc.rval)
}

// netErrMethod is (*net.OpError).Error (timeout false: the message) or
// Timeout and Temporary (timeout true) of an error the model made.
func netErrMethod(timeout bool) intrinsic {
	return func(c *icall) ctrl {
		e := c.netErrOf()
		if e == nil {
			return c.g.unsupported(c.pos, "%s of a *net.OpError the net model did not make", c.name())
		}
		if timeout {
			return c.ret(boolV(e.timeout))
		}
		return c.ret(strV(e.msg))
	}
}

// syscallErrorString is (*os.SyscallError).Error for the errors the model
// makes (an Errno wrapped).
func syscallErrorString(m *machine, _ *ssa.Function) intrinsic {
	f := m.fieldOffs("os", "SyscallError", "Syscall", "Err")
	errno := m.rtypeOf(m.named("syscall", "Errno"))
	return func(c *icall) ctrl {
		v := c.args[0]
		if v.p == nil {
			return c.nilPanic()
		}
		cells := v.obj().cells[v.off():]
		err := cells[f[1]]
		if err.p == nil || err.iface().t != errno {
			return c.g.unsupported(c.pos, "%s of an error that is not a syscall.Errno", c.name())
		}
		return c.ret(strV(cells[f[0]].Str() + ": " + syscall.Errno(err.iface().v.a).Error()))
	}
}

// osIsTimeout is os.IsTimeout for the errors the models make; other
// errors are unsupported.
func osIsTimeout(c *icall) ctrl {
	err := c.args[0]
	if err.p == nil {
		return c.ret(boolV(false))
	}
	m := c.m()
	it := err.iface()
	switch it.t {
	case m.ptrTo("net", "OpError"):
		if e, ok := c.x().side[objKeyOf(it.v.obj(), -1)].(*netErr); ok {
			return c.ret(boolV(e.timeout))
		}
	case m.ptrTo("internal/poll", "DeadlineExceededError"):
		return c.ret(boolV(true))
	case m.ptrTo("errors", "errorString"):
		return c.ret(boolV(false))
	}
	return c.g.unsupported(c.pos, "os.IsTimeout of a %s", it.t.T)
}
