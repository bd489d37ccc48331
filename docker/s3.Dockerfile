# syntax=docker/dockerfile:1
#
# versitygw, the S3-compatible server docker-compose.yml runs as `s3`: the same pinned release
# `make test` builds (scripts/s3-server.sh), from the Go module proxy, with its POSIX backend
# keeping each object as a plain file in the `s3-data` volume.
# Build from the repository root: docker build -f docker/s3.Dockerfile .

FROM golang:1.25-bookworm AS build
ARG VERSITYGW_VERSION=v1.8.0
RUN --mount=type=cache,target=/root/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOFLAGS=-buildvcs=false go install "github.com/versity/versitygw/cmd/versitygw@${VERSITYGW_VERSION}"

FROM debian:bookworm-slim
COPY --from=build /go/bin/versitygw /usr/local/bin/versitygw
# The POSIX backend keeps object metadata in extended attributes: the volume's filesystem
# (ext4, xfs; Docker's default volumes) must support them.
RUN mkdir -p /data && chown 1000:1000 /data
USER 1000:1000
EXPOSE 7070 7071
ENTRYPOINT ["versitygw"]
CMD ["--port", ":7070", "--webui", ":7071", "--cors-allow-origin", "*", "posix", "/data"]
