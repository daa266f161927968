# gsys quick start: `make demo` and `make test` (each installs missing packages first);
# `make install PREFIX=DIR` and `make deb` install it (docs/install.md).
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
FUZZ_BUILD ?= build-fuzz
PREFIX ?= /usr/local

.PHONY: deps build build-asan demo install deb test test-release test-asan test-tsan test-fuzz lint clean

deps:
	@bash tools/install_deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGSYS_WERROR=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# -O1 -g1 (line tables: ASan's reports keep file:line) instead of -O2 -g: the ASan tree is the
# largest compile of `make test` and CI's clean clone has no compiler cache.
build-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
	  -DGSYS_SANITIZE=address,undefined -DGSYS_BUILD_BENCH=OFF -DGSYS_WERROR=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

demo: build
	@bash tools/demo.sh $(BUILD)

# The installed layout (cmake/GsysInstall.cmake): PREFIX/bin/gsys, PREFIX/lib/gsys/, man pages.
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

# The Debian package, $(BUILD)/deb/gsys_<version>_<arch>.deb (cmake/GsysPackage.cmake).
deb: build
	@cd $(BUILD) && cpack -G DEB -B deb >/dev/null && ls deb/*.deb

lint: deps
	@bash tools/check_layering.sh
	@bash tools/check_format.sh

test-release: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The unit, golden and CLI tiers again under ASan+UBSan (GPU tests excluded).
test-asan: build-asan
	@cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS) -LE 'gpu|bench'

# The capture buffer/writer/flush and buffer-growth tests under ThreadSanitizer (only those binaries).
test-tsan: deps
	@cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGSYS_SANITIZE=thread \
	  -DGSYS_BUILD_BENCH=OFF -DGSYS_WERROR=ON >/dev/null
	@cmake --build $(TSAN_BUILD) -j $(JOBS) --target gsys_capture_test gsys_sink_wake_test \
	  gsys_export_test
	@cd $(TSAN_BUILD) && ctest --output-on-failure -L tsan

# Every libFuzzer target for a few seconds on its seed corpus (clang; only the fuzzers are built,
# at -O1 -g1 like the sanitizer tiers: ~45% less compile time than -O2 -g for a 4-second run;
# the long runs, bench/fuzz_long.sh, use a -O2 build).
test-fuzz: deps
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
	  -DGSYS_FUZZ=ON -DGSYS_WERROR=OFF -DGSYS_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target gsys_fuzzers
	@cd $(FUZZ_BUILD) && ctest --output-on-failure -L fuzz -j $(JOBS)

test: lint test-release test-asan test-tsan test-fuzz

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD)
