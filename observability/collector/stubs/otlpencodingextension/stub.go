// Package otlpencodingextension is an empty stand-in. The file exporter's own tests import the real one; the Go
// proxy serves its go.mod but refuses its source (403), and `go mod tidy` (run by the collector builder) resolves
// the imports of dependencies' tests too. Nothing in the built collector imports it.
package otlpencodingextension
