// Package browsertest opens HTML pages in headless Chromium for tests,
// with chromedp: one browser per test binary (Shared), a tab per page
// (Tab) that records the page's console errors, and the few actions a
// test of a page needs (evaluate an expression, click an element as a
// user does, take a screenshot).
//
// A page is ready when its body has data-ready="1" (package report's
// pages set it once drawn). The package does not import testing: its
// functions take a TB, which *testing.T and *testing.B satisfy.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"
)

// TB is the part of testing.TB the package uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	FailNow()
	Skipf(format string, args ...any)
	Cleanup(func())
}

// Path finds Chromium: $CHROMIUM, or chromium (Debian), chromium-browser
// or google-chrome on PATH; "" when there is none.
func Path() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is a running headless Chromium.
type Browser struct {
	ctx    context.Context
	cancel func()
}

// Start starts headless Chromium with a 1400×1000 window.
func Start() (*Browser, error) {
	path := Path()
	if path == "" {
		return nil, errors.New("no Chromium: install Debian's chromium package (apt-get install -y chromium; make test does it) or set $CHROMIUM")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1400, 1000))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	b := &Browser{ctx: ctx, cancel: func() { cancel(); acancel() }}
	if err := chromedp.Do(ctx); err != nil {
		b.Close()
		return nil, fmt.Errorf("cannot start %s: %w", path, err)
	}
	return b, nil
}

// Context is the browser's chromedp context: chromedp.NewContext(ctx)
// opens a tab.
func (b *Browser) Context() context.Context { return b.ctx }

// Pid is the process id of the browser (0 if unknown).
func (b *Browser) Pid() int {
	if c := chromedp.FromContext(b.ctx); c != nil && c.Browser != nil {
		if p := c.Browser.Process(); p != nil {
			return p.Pid
		}
	}
	return 0
}

// Close stops the browser.
func (b *Browser) Close() { b.cancel() }

// Shared is the one browser of a test binary, started on first use. The
// zero Shared is ready to use; TestMain calls Close.
type Shared struct {
	once sync.Once
	b    *Browser
	err  error
}

// Get returns the browser, starting it on first use; without one it
// skips the test, saying how to install Chromium.
func (s *Shared) Get(t TB) *Browser {
	t.Helper()
	s.once.Do(func() { s.b, s.err = Start() })
	if s.err != nil {
		t.Skipf("skipping the browser test: %v", s.err)
	}
	return s.b
}

// Close stops the browser if it was started.
func (s *Shared) Close() {
	if s.b != nil {
		s.b.Close()
	}
}

// Tab is a page open in the browser, with the errors its console logged.
type Tab struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// Open opens the file at path in a new tab and waits until the page is
// ready. When the test ends the tab is closed, and the test fails if the
// page logged an error or threw an exception.
func (b *Browser) Open(t TB, path string) *Tab {
	t.Helper()
	tab := b.NewTab(t)
	tab.Load(t, path)
	return tab
}

// NewTab opens an empty tab, closed when the test ends; the test fails
// then if a page of the tab logged an error that Errors did not take.
func (b *Browser) NewTab(t TB) *Tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	tab := &Tab{ctx: ctx}
	done := make(chan struct{})
	messages := chromedp.Console(ctx)
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == "error" || m.Type == "assert" {
				tab.mu.Lock()
				tab.errors = append(tab.errors, m.String())
				tab.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		tab.mu.Lock()
		defer tab.mu.Unlock()
		if len(tab.errors) > 0 {
			t.Errorf("the pages logged errors: %q", tab.errors)
		}
	})
	return tab
}

// Load opens the file at path in the tab, replacing its page, and waits
// until the page is ready; errors the new page logs fail the test too.
// A test opening many pages loads them into one tab: a navigation costs
// less than a tab.
func (tab *Tab) Load(t TB, path string) {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Errorf("%v", err)
		t.FailNow()
	}
	tctx, tcancel := context.WithTimeout(tab.ctx, time.Minute)
	defer tcancel()
	if err := chromedp.Do(tctx, chromedp.Navigate("file://"+abs)); err != nil {
		t.Errorf("opening %s: %v", path, err)
		t.FailNow()
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.body.getAttribute("data-ready") === "1"`)); err != nil {
		t.Errorf("%s did not finish drawing: %v", path, err)
		t.FailNow()
	}
}

// Errors returns the errors and exceptions the tab's pages logged since
// the last call (those not taken by the end of the test fail it).
func (tab *Tab) Errors() []string {
	tab.mu.Lock()
	defer tab.mu.Unlock()
	errs := tab.errors
	tab.errors = nil
	return errs
}

// Eval evaluates a JavaScript expression in the tab; an error fails the
// test.
func Eval[T any](t TB, tab *Tab, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Errorf("evaluating %s: %v", expr, err)
		t.FailNow()
	}
	return v
}

// Click clicks the first element the CSS selector sel selects with the
// mouse, as a user does.
func (tab *Tab) Click(t TB, sel string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab.ctx, 30*time.Second)
	defer cancel()
	byCSS := chromedp.ByFunc(func(ctx context.Context, tg *chromedp.Target, n *chromedp.Node) ([]cdp.NodeID, error) {
		res, err := cdp.Call(ctx, tg, dom.QuerySelectorAll, dom.QuerySelectorAllParams{NodeID: n.NodeID, Selector: sel})
		return res.NodeIDs, err
	})
	if err := chromedp.Do(ctx, chromedp.Click(sel, byCSS)); err != nil {
		t.Errorf("clicking %s: %v", sel, err)
		t.FailNow()
	}
}

// Screenshot writes a PNG of the tab's viewport to path.
func (tab *Tab) Screenshot(t TB, path string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(path, png, 0o644)
	}
	if err != nil {
		t.Errorf("screenshot %s: %v", path, err)
		t.FailNow()
	}
}
