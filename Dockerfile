# SPDX-License-Identifier: Apache-2.0
# gsys in containers (docs/install.md, docs/serving.md). Stage `gsys` builds it on plain Debian:
# no CUDA toolkit, no network after apt-get. It installs to /opt/gsys, a tree that works
# wherever it is copied (gsys finds lib/gsys/ next to bin/), so any image takes it with one
#   COPY --from=gsys /opt/gsys /opt/gsys
# The `runtime` stage is that snippet on a slim base; docs/serving.md shows it on a model server.
#   docker build -t gsys .                       (the runtime image)
#   docker build --target gsys -t gsys-build .   (only the build stage)
# tests/install/test_container.sh lints this file and runs its build steps without an engine.

FROM debian:bookworm-slim AS gsys
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      cmake make g++ libc6-dev libsqlite3-dev libssl-dev libcurl4-openssl-dev libdw-dev python3 \
      rapidjson-dev zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
COPY CMakeLists.txt CMakePresets.json README.md /src/gsys/
COPY cmake /src/gsys/cmake
COPY src /src/gsys/src
COPY examples /src/gsys/examples
COPY docs /src/gsys/docs
COPY packaging /src/gsys/packaging
COPY tools /src/gsys/tools
RUN bash /src/gsys/tools/build_release.sh /src/gsys /build /opt/gsys

FROM debian:bookworm-slim AS runtime
COPY --from=gsys /opt/gsys /opt/gsys
# libcurl only for s3:// uploads: gsys loads it when an upload runs.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libcurl4 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=/opt/gsys/bin:$PATH
# Off unless the deployment sets GSYS_PROFILE=1: gsys wrap then execs the command unchanged.
ENTRYPOINT ["gsys", "wrap", "--"]
CMD ["sleep", "infinity"]
