# syntax=docker/dockerfile:1
#
# The gpupick image: one static binary on distroless (no shell, no package
# manager), run as the non-root user 65532. It writes nothing to disk when
# GPUPICK_DB is a postgres:// URL, so the root file system can be read-only.
# Without GPUPICK_DB (or --db) serve opens a SQLite file under
# $HOME/.config/gpupick: mount a writable volume there (an emptyDir is
# enough for a one-replica trial; its data goes with the pod).
#
#   docker build -t gpupick:dev .
#   docker run --rm -p 8080:8080 -e GPUPICK_DB=postgres://... gpupick:dev
#
# See deploy/kubernetes/ and the README's "Run it on Kubernetes".

FROM golang:1.26 AS build
WORKDIR /src
# Modules first, so that a source change reuses the downloaded ones.
COPY go.mod go.sum ./
RUN go mod download && go mod verify
COPY . .
# Static (pure Go: modernc.org/sqlite and pgx need no cgo), no paths of this
# machine in the binary, no symbol tables. VCS stamping is off because the
# build context carries no .git (see .dockerignore).
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "-s -w" -o /out/gpupick ./cmd/gpupick

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/gpupick /gpupick
# distroless' nonroot user; numeric, so that runAsNonRoot can verify it.
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/gpupick"]
# --public refuses to start until an API token exists in the database
# (gpupick token create); --allowed-host names the DNS names clients use.
CMD ["serve", "--addr", "0.0.0.0:8080", "--public"]
