package edge

import (
	_ "embed"
	"net/http"
)

// openAPIDocument is the OpenAPI 3.1 description of this API, served at GET
// /openapi.json by every host. It is written by hand and held to the code by
// tests: it validates with kin-openapi, names every route with its method, its
// request schemas have exactly the fields the decoder accepts, and the
// handler's real answers validate against its response schemas.
//
//go:embed openapi.json
var openAPIDocument []byte

// OpenAPIDocument returns the document served at /openapi.json (a copy).
func OpenAPIDocument() []byte { return append([]byte(nil), openAPIDocument...) }

func (h *Handler) openAPI(w http.ResponseWriter, r *http.Request, rc *requestContext) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(openAPIDocument)
	}
}
