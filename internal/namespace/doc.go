// Package namespace implements Code Mode's internal namespaces (spec: "Interne
// Namespaces"): compact, plugin-owned domain APIs such as Issues.list(...) that guest
// code calls inside QuickJS while the model still sees only exec/wait.
//
// A trusted loader registers a namespace for a plugin (RegisterForPlugin). Per run,
// Resolve keeps only namespaces whose RequiredToolNames are all visible in the run
// catalog and all owned by that plugin (Source openclaw, Owner == plugin id), calls
// CreateScope and serializes the scope into a plain JSON descriptor the guest can
// rebuild. Scope members that the guest may call are made with Tool(...) only; each
// call is mapped back (ResolveCall) to a declared catalog tool and runs through the
// ordinary catalog execution path, never through host code in the scope.
//
// Descriptor (Runtime.Descriptors), one entry per visible namespace, sorted by id:
//
//	[{"id":"github-issues","globalName":"Issues",
//	  "value":{"repository":{...},"list":null,"update":null},
//	  "callables":[["list"],["update"]]}]
//
// The guest deep-copies value, puts a bridge function at each callable path (whose
// placeholder in value is null) and injects the result as globalThis[globalName]
// and namespaces[globalName]. Callables live outside value so scope data can never
// forge one.
//
// Serialization rules (violations fail Resolve, naming namespace and path):
//   - rejected: func values, channels, complex numbers, unsafe pointers, map keys
//     that are not strings or integers, reference cycles (through pointers, maps,
//     slices or interfaces), nesting deeper than MaxDepth, more than MaxNodes
//     values, descriptors larger than MaxDescriptorBytes, object keys that are
//     empty, "__proto__", "constructor" or "prototype" or contain PathSeparator,
//     zero Callables and callables naming tools outside RequiredToolNames.
//   - shared references that are not cycles serialize at every place they occur.
//   - JSON-safe replacements: NaN and ±Inf become null (as JSON.stringify does);
//     integers outside ±(2^53-1), *big.Int, *big.Float and big.Rat become decimal
//     strings; time.Time becomes an RFC 3339 string; []byte becomes base64;
//     invalid UTF-8 becomes U+FFFD; json.Marshaler and encoding.TextMarshaler
//     values use their encoding (re-checked by the same rules).
//   - structs follow encoding/json field rules for exported fields, json tags
//     ("-", rename, omitempty) and embedded structs.
package namespace
