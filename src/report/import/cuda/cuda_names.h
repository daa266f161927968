// SPDX-License-Identifier: Apache-2.0
// Kernel names for CUPTI_ACTIVITY_KIND_KERNEL: CUPTI reports the mangled name; reports show
// the demangled name (demangledName) and the base function name (shortName), as nsys does.
#pragma once

#include <string>
#include <string_view>

namespace gsys::report {

// The demangled form of `mangled` ("_Z6squarePfi" -> "square(float *, int)"); names that are
// not C++-mangled (extern "C" kernels, PTX entry names) come back unchanged. Anonymous
// namespaces print as nsys prints them ("<unnamed>").
std::string DemangleKernelName(std::string_view mangled);

// The base function name of a demangled kernel name: no return type, scope, template
// arguments or parameters ("void ns::k<int>(float*)" -> "k").
std::string KernelShortName(std::string_view demangled);

}  // namespace gsys::report
