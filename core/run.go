package core

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/codemode-go/codemode/core/mcp"
	"github.com/codemode-go/codemode/internal/apifiles"
	"github.com/codemode-go/codemode/internal/catalog"
	"github.com/codemode-go/codemode/internal/namespace"
	"github.com/codemode-go/codemode/internal/quickjs"
	"github.com/codemode-go/codemode/internal/strictjson"
	"github.com/codemode-go/codemode/internal/text"
)

// run is one Code Mode run across its exec and wait calls. Between calls it is
// a snapshot plus the bookkeeping of its pending bridge calls; during a call it
// also has a live VM. Only the goroutine holding the run (exec, or the wait that
// took it from the store) touches it, except the settle queue.
type run struct {
	rt           *Runtime
	id           string
	scope        Scope
	principal    string
	parentCallID string
	cat          *catalog.Catalog
	visible      []string
	servers      []*mcp.Server // the MCP servers this run's scope sees
	restartSafe  bool
	mcpIDs       map[string]map[string]string // server -> tool -> catalog id
	files        func() *apifiles.Files       // the MCP declaration files, rendered on first use
	mcpSafe      map[string]apifiles.ServerNames
	ns           *namespace.Runtime
	openclawIDs  map[[2]string]string // (owner, name) -> catalog id
	cell         cellText             // what guest positions are mapped against

	// ctx outlives single exec/wait calls: tool calls keep running while the run
	// is suspended. cancel ends them when the run ends (or is aborted).
	ctx    context.Context
	cancel context.CancelFunc
	// callCtx is the context of the exec or wait driving the run now; nested
	// calls get its values (auth, tracing) but not its cancellation.
	callCtx   context.Context
	undriveFn func()    // set by drive while a caller context is merged in
	pool      *callPool // the nested calls' goroutines while the run is driven

	snap    *quickjs.Snapshot
	result  quickjs.Value // the cell's [ok, value] promise, a box in guest memory
	calls   map[string]*pendingCall
	settled *settleQueue
	outside *outside // pending calls waiting for the host (WaitOutside)
	yield   *quickjs.Resolvers
	seq     int
	timers  runTimers

	// snapCharged is what snap counts against the runtime's SuspendLimits.
	snapCharged int64

	// per exec/wait call
	vm       *quickjs.VM
	callID   string
	out      []Output
	outUsed  int64 // across the whole run
	overflow bool

	// store bookkeeping, guarded by the store's lock
	state   runState
	place   bool        // holds one of the SuspendLimits' places
	expires time.Time   // by the runtime's clock (hostopts.Options.Now)
	expiry  *time.Timer // ends the suspended run at its TTL
	armed   uint64      // generation of expiry (store.armLocked), under the store's lock

	recorded int // trajectory records already filed in the transcript

	updates updateSink // where nested calls' partial results go now
	// slot: the driving exec or wait holds one of the runtime's running-cell
	// slots (Options.MaxRunningCells); given back while the run waits.
	slot bool
}

// dropSlot gives the run's running-cell slot back, if it holds one.
func (r *run) dropSlot() {
	if r.slot {
		r.slot = false
		r.rt.admit.leave()
	}
}

type pendingCall struct {
	id, kind, toolID string
	res              quickjs.Resolvers
}

// settlement is a finished bridge call: JSON text or a plain error.
type settlement struct {
	id   string
	ok   bool
	json string
	name string
	msg  string
}

// init prepares the run's views of its catalog: MCP ids and declaration files,
// and the plugin namespaces whose tools are all visible (rejected scopes fail
// the run before any guest code runs).
func (r *run) init() error {
	r.ctx, r.cancel = context.WithCancel(context.Background())
	r.calls = map[string]*pendingCall{}
	r.settled = newSettleQueue()
	r.outside = newOutside()
	r.mcpIDs = map[string]map[string]string{}
	var mcpSpecs []catalog.Spec
	for _, e := range r.cat.MCPEntries() {
		if r.mcpIDs[e.SourceName] == nil {
			r.mcpIDs[e.SourceName] = map[string]string{}
		}
		r.mcpIDs[e.SourceName][e.Name] = e.ID
		if d, err := r.cat.Lookup(e.ID); err == nil {
			mcpSpecs = append(mcpSpecs, catalog.Spec{Name: e.Name, Description: e.Description, Parameters: d.Parameters, Source: catalog.SourceMCP, Owner: e.SourceName})
		}
	}
	decls := apifiles.DeclsFromSpecs(mcpSpecs)
	// Rendered when the guest first reads an API file or header: most cells
	// never do, and a page's first exec would pay for it on V8's baseline code.
	r.files = sync.OnceValue(func() *apifiles.Files { return apifiles.RenderWith(decls, r.rt.memo) })
	r.mcpSafe = apifiles.SafeNames(decls)
	r.openclawIDs = map[[2]string]string{}
	for _, e := range r.cat.Entries() {
		if e.Source == catalog.SourceOpenClaw {
			r.openclawIDs[[2]string{e.SourceName, e.Name}] = e.ID
		}
	}
	ns, err := r.rt.resolveNamespaces(r.cat, r.scope, r.id, func() bool { return r.ctx.Err() != nil })
	if err != nil {
		return err
	}
	r.ns = ns
	return nil
}

func (r *run) discard() {
	if r.cancel != nil {
		r.cancel()
	}
	r.freeSnap()
}

func (r *run) limits(deadline time.Time) quickjs.Limits {
	return quickjs.Limits{
		MemoryLimit: uint32(r.rt.cfg.MemoryLimitBytes),
		Deadline:    deadline,
		// Where the clock stands still in a busy loop (Workers) the budget stops
		// it; natively the wall clock fires long before (QuickJS checks about
		// once per 10,000 back jumps and calls).
		InterruptBudget: r.rt.interruptBudget(),
		PollBudget:      r.rt.pollBudget(),
	}
}

// drive makes ctx the context of the call driving the run now. The returned
// context, which the VM and the pump obey, ends with ctx or when the run is
// aborted from outside (Abort, EndSession, expiry, Close). A caller context
// that can never end (Done() == nil: context.Background and its value
// contexts) needs no merging: the run's own context is then the one to obey,
// and nothing is registered on it. undrive releases what drive made.
func (r *run) drive(ctx context.Context) context.Context {
	r.callCtx = ctx
	r.pool = newCallPool()
	if ctx.Done() == nil {
		return r.ctx
	}
	vctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(r.ctx, cancel)
	r.undriveFn = func() { stop(); cancel() }
	return vctx
}

// undrive ends the merged context of drive, if there is one, and lets the
// call pool's idle goroutines end. end calls it
// before the run's context is canceled, so the AfterFunc is unregistered
// rather than fired (as a goroutine of its own).
func (r *run) undrive() {
	if r.pool != nil {
		r.pool.close()
		r.pool = nil
	}
	if r.undriveFn != nil {
		r.undriveFn()
		r.undriveFn = nil
	}
}

// jobContext is a nested call's context: the driving call's values without its
// cancellation (the call may outlive it while the run is suspended), ended
// when the run ends.
func (r *run) jobContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.callCtx))
	stop := context.AfterFunc(r.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// start evaluates the cell in a fresh VM and pumps it.
func (r *run) start(ctx context.Context, src string) Result {
	if !r.rt.store.register(r) {
		r.discard()
		return r.failure(CodeRuntimeUnavailable, msgClosed)
	}
	ctx = r.drive(ctx)
	defer r.undrive()
	deadline := time.Now().Add(time.Duration(r.rt.cfg.TimeoutMs) * time.Millisecond)
	vm, err := r.rt.qjs.NewVM(ctx, r.limits(deadline))
	if err != nil {
		return r.end(r.failure(CodeRuntimeUnavailable, "code mode runtime unavailable: could not start a QuickJS-WASI VM"))
	}
	r.attach(vm)
	defer r.detach()
	if err := r.setup(); err != nil {
		return r.end(r.guestFailure(err))
	}
	// The cell is the body of an async function: top-level await and return work.
	fn, err := vm.Eval(cellPrefix+src+cellSuffix, "cell.js")
	if err != nil {
		return r.end(r.guestFailure(err))
	}
	start, err := vm.GetProp(vm.Prelude(), "start")
	if err == nil {
		r.result, err = vm.Call(start, vm.Undefined(), fn)
		vm.Free(start)
	}
	vm.Free(fn)
	if err != nil {
		return r.end(r.guestFailure(err))
	}
	return r.pump(ctx, deadline, false)
}

// resume restores the run's snapshot (the wait took it from the store) into a
// fresh VM and pumps it.
func (r *run) resume(ctx context.Context, callID string) Result {
	ctx = r.drive(ctx)
	defer r.undrive()
	deadline := time.Now().Add(time.Duration(r.rt.cfg.TimeoutMs) * time.Millisecond)
	vm, err := r.rt.qjs.Restore(ctx, r.snap, r.limits(deadline))
	if err != nil {
		return r.end(r.failure(CodeInvalidInput, "code mode run could not be restored."))
	}
	r.parentCallID = callID
	r.attach(vm)
	defer r.detach()
	r.freeSnap()
	if r.yield != nil { // wait is the model's go-ahead after yield_control
		y := *r.yield
		r.yield = nil
		v, err := vm.NewString("null")
		if err == nil {
			err = vm.Settle(y, true, v)
			vm.Free(v)
		}
		if err != nil {
			return r.end(r.guestFailure(err))
		}
	}
	return r.pump(ctx, deadline, true)
}

func (r *run) attach(vm *quickjs.VM) {
	r.vm = vm
	r.out, r.overflow = nil, false
	vm.Handle(hostSync, r.hostSync)
	vm.Handle(hostAsync, r.hostAsync)
}

func (r *run) detach() {
	if r.vm != nil {
		r.vm.Close()
		r.vm = nil
	}
}

// pump runs jobs and delivers settled bridge calls until the cell is done, it
// yields, or the deadline passes with calls still pending. A restartSafe run is
// never auto-pumped: its exec suspends as soon as calls are pending, and a wait
// blocks only until something settles (bounded by the deadline), delivers it,
// and suspends again if more is pending.
func (r *run) pump(ctx context.Context, deadline time.Time, resumed bool) Result {
	vm := r.vm
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	tick, report, stopTick := r.progressTicker(deadline)
	defer stopTick()
	delivered := 0
	for {
		n, err := r.drainSettled()
		delivered += n
		if err == nil {
			err = vm.RunJobs()
		}
		// Aborted from outside (r.ctx) or by the caller: whatever its canceled
		// calls settled meanwhile is moot.
		if ctx.Err() != nil || r.ctx.Err() != nil {
			return r.end(r.failure("", msgAborted))
		}
		if err != nil {
			return r.end(r.guestFailure(err))
		}
		if r.overflow {
			return r.end(r.failure(CodeOutputLimitExceeded, r.overflowMsg()))
		}
		st := vm.State(r.result)
		if st != quickjs.Pending && len(r.calls) == 0 && !vm.JobsPending() {
			return r.end(r.finish())
		}
		if r.yield != nil {
			return r.suspend("yield")
		}
		if len(r.calls) == 0 {
			return r.end(r.failure("", "the program is awaiting a promise that nothing will ever settle (no tool call is pending)"))
		}
		// Every pending call waits for the host (WaitOutside): pumping cannot help.
		if (r.restartSafe && (!resumed || delivered > 0)) || r.outside.count() >= len(r.calls) {
			return r.suspend("pending_tools")
		}
		// Waiting runs no guest code: another cell may use the slot meanwhile.
		r.dropSlot()
		select {
		case <-r.settled.wake: // delivered at the top of the loop
		case <-r.outside.notify: // a call now waits for the host: check again
		case <-timer.C:
			return r.suspend("pending_tools")
		case <-ctx.Done():
			return r.end(r.failure("", msgAborted))
		case <-tick:
			report()
		}
		ok, timedOut := r.rt.admit.reenter(ctx, timer.C)
		switch {
		case timedOut: // what settled is delivered on wait
			return r.suspend("pending_tools")
		case !ok:
			return r.end(r.failure("", msgAborted))
		}
		r.slot = r.rt.admit != nil
	}
}

// deliver settles one bridge promise in the guest.
func (r *run) deliver(s settlement) error {
	if s.id == timerTick {
		return r.fireTimers()
	}
	pc, ok := r.calls[s.id]
	if !ok {
		return nil
	}
	delete(r.calls, s.id)
	if pc.kind == "timer" {
		r.timers.calls--
	}
	vm := r.vm
	var v quickjs.Value
	var err error
	if s.ok {
		v, err = vm.NewString(s.json)
	} else {
		v, err = vm.NewError(s.name, s.msg)
	}
	if err != nil {
		return err
	}
	defer vm.Free(v)
	return vm.Settle(pc.res, s.ok, v)
}

// drainSettled delivers everything that settled while the run was suspended
// and says how many settlements it delivered.
func (r *run) drainSettled() (int, error) {
	for n := 0; ; n++ {
		s, ok := r.settled.take()
		if !ok {
			return n, nil
		}
		if err := r.deliver(s); err != nil {
			return n, err
		}
	}
}

// suspend snapshots the VM and parks the run in the store.
func (r *run) suspend(reason string) Result {
	snap, err := r.vm.Snapshot()
	if err != nil {
		r.rt.opts.Logger.Error("code mode: snapshot failed", "run", r.id, "error", err.Error())
		return r.end(r.failure(CodeInternalError, "code mode could not snapshot the run"))
	}
	if max := r.rt.cfg.MaxSnapshotBytes; int64(snap.Bytes()) > max {
		return r.end(r.failure(CodeSnapshotLimitExceeded, "code mode snapshot of "+strconv.Itoa(snap.Bytes())+" bytes exceeds maxSnapshotBytes ("+strconv.FormatInt(max, 10)+")."))
	}
	if !r.holdSnap(snap) {
		return r.end(r.failure(CodeSnapshotLimitExceeded, r.rt.msgSuspendedBudget(snap.Bytes())))
	}
	if msg := r.rt.store.suspend(r); msg != "" {
		r.freeSnap()
		code := CodeInvalidInput // too many suspended runs
		if msg == msgAborted {
			code = ""
		}
		return r.end(r.failure(code, msg))
	}
	res := Result{Status: StatusWaiting, RunID: r.id, Reason: reason, Output: r.out, Telemetry: r.telemetry(), RestartSafe: r.restartSafe}
	for _, pc := range r.calls {
		res.PendingToolCalls = append(res.PendingToolCalls, PendingToolCall{ID: pc.id, ToolID: pc.toolID, Kind: pc.kind})
	}
	sortPending(res.PendingToolCalls)
	return res
}

// end finishes a run that will not be resumed: it leaves the store, its
// pending calls are canceled and its snapshot is freed.
func (r *run) end(res Result) Result {
	r.undrive()
	r.rt.store.finish(r)
	return res
}

// finish reads the cell's settled [ok, value] pair.
func (r *run) finish() Result {
	vm := r.vm
	pair, err := vm.PromiseResult(r.result)
	if err != nil {
		return r.guestFailure(err)
	}
	defer vm.Free(pair)
	okv, err := vm.GetProp(pair, "0")
	if err != nil {
		return r.guestFailure(err)
	}
	ok := vm.IsString(okv) // "ok" marks success; a failure carries a boolean
	vm.Free(okv)
	val, err := vm.GetProp(pair, "1")
	if err != nil {
		return r.guestFailure(err)
	}
	defer vm.Free(val)
	if !ok {
		return r.failure("", r.describe(vm.ErrorOf(val)))
	}
	if errs := vm.UnhandledRejections(); len(errs) > 0 {
		return r.failure("", "unhandled promise rejection: "+r.describe(errs[0])+" (await every tool call or attach .catch())")
	}
	text, err := vm.GoString(val)
	if err != nil {
		return r.guestFailure(err)
	}
	if text, err = strictjson.CanonicalWellFormedString(text); err != nil {
		return r.failure("", "the cell's result is not plain JSON ("+strictReason(err)+"); return plain strings, finite numbers, arrays and objects.")
	}
	if !r.charge(int64(len(text))) {
		return r.failure(CodeOutputLimitExceeded, "code mode result value of "+strconv.Itoa(len(text))+" bytes exceeds maxOutputBytes ("+strconv.FormatInt(r.rt.cfg.MaxOutputBytes, 10)+"); return a smaller value or summarize it.")
	}
	return Result{Status: StatusCompleted, Value: []byte(text), Output: r.out, Telemetry: r.telemetry()}
}

// guestFailure maps a VM error to the spec's error codes.
func (r *run) guestFailure(err error) Result {
	var ie *quickjs.InterruptError
	var je *quickjs.JSError
	var te *quickjs.TrapError
	switch {
	case errors.As(err, &ie) && ie.Reason == "canceled":
		return r.failure("", msgAborted)
	case errors.As(err, &ie) && ie.Reason == "budget":
		// The clock had not reached the deadline: say what did stop it.
		return r.failure(CodeTimeout, "code mode cell used up its CPU budget (timeoutMs = "+strconv.Itoa(r.rt.cfg.TimeoutMs)+
			" ms worth of busy work, counted by the engine's checks rather than the clock) while running guest code.")
	case errors.As(err, &ie):
		return r.failure(CodeTimeout, "code mode cell exceeded timeoutMs ("+strconv.Itoa(r.rt.cfg.TimeoutMs)+" ms) while running guest code.")
	case errors.As(err, &je):
		if je.IsOutOfMemory() {
			return r.failure("", "InternalError: out of memory (the cell exceeded memoryLimitBytes = "+strconv.FormatInt(r.rt.cfg.MemoryLimitBytes, 10)+")")
		}
		return r.failure("", r.describe(je))
	case errors.As(err, &te):
		r.rt.opts.Logger.Error("code mode: the QuickJS-WASI VM trapped and was discarded", "run", r.id, "error", err.Error())
		return r.failure(CodeRuntimeUnavailable, "the QuickJS-WASI VM stopped unexpectedly and was discarded.")
	}
	r.rt.opts.Logger.Error("code mode: internal error", "run", r.id, "error", err.Error())
	return r.failure(CodeInternalError, "code mode internal error.")
}

// failure builds a failed result whose message fits the output budget.
func (r *run) failure(code ErrorCode, msg string) Result {
	room := r.rt.cfg.MaxOutputBytes - r.outUsed
	if room < 256 {
		room = 256
	}
	if int64(len(msg)) > room {
		msg = text.Cut(msg, int(room)-40) + "… [truncated to maxOutputBytes]"
	}
	return Result{Status: StatusFailed, Error: msg, Code: code, Output: r.out, Telemetry: r.telemetry()}
}

func (r *run) telemetry() catalog.Telemetry { return r.cat.Telemetry(r.visible) }

func (r *run) nextID(kind string) string {
	r.seq++
	return kind + "_" + strconv.Itoa(r.seq)
}
