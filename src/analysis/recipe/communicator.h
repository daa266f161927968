// SPDX-License-Identifier: Apache-2.0
// Communicator: the few collective operations the recipe engine needs across processes (MPI
// scale-out). Process 0 is the root that reduces and writes the output.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::analysis::recipe {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every process passes one blob; the root gets all of them indexed by process, others get {}.
  virtual Result<std::vector<std::string>> Gather(const std::string& blob) = 0;
  // The root's `blob` reaches every process.
  virtual Result<std::string> Broadcast(const std::string& blob) = 0;
  // Point to point, in order between two processes (large results travel piece by piece).
  virtual Status SendTo(int to, const std::string& blob) = 0;
  virtual Result<std::string> RecvFrom(int from) = 0;
};

// Open MPI loaded at run time with dlopen (libmpi.so.40 or libmpi.so), so gsys itself never
// needs libmpi: initializes MPI (MPI_Finalize runs when the object is destroyed). Errors:
// kUnsupported when no Open MPI library can be loaded or the process was not started by mpirun.
Result<std::unique_ptr<Communicator>> OpenMpiCommunicator();

}  // namespace gsys::analysis::recipe
