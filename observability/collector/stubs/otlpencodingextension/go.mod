// An empty stand-in, for `go mod tidy` only: see observability/collector/builder-config.yaml (replaces).
module github.com/open-telemetry/opentelemetry-collector-contrib/extension/encoding/otlpencodingextension

go 1.25
