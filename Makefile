# gsys quick start: `make demo` and `make test` (each installs missing packages first).
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan

.PHONY: deps build build-asan demo test test-release test-asan lint clean

deps:
	@bash tools/install_deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGSYS_WERROR=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

build-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DGSYS_SANITIZE=address,undefined -DGSYS_BUILD_BENCH=OFF -DGSYS_WERROR=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

demo: build
	@bash tools/demo.sh $(BUILD)

lint:
	@bash tools/check_layering.sh

test-release: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The unit, golden and CLI tiers again under ASan+UBSan (GPU tests excluded).
test-asan: build-asan
	@cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS) -LE 'gpu|bench'

test: lint test-release test-asan

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
