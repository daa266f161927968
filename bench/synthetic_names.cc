// SPDX-License-Identifier: Apache-2.0
#include "bench/synthetic_names.h"

#include <array>
#include <cstdio>
#include <string_view>
#include <unordered_set>

#include "bench/synthetic_random.h"

namespace gsys::bench {
namespace {

using Strings = std::vector<std::string_view>;

// Picks parameter `radix` digits of `v` in turn: each call returns the next list element.
class Digits {
 public:
  explicit Digits(size_t v) : v_(v) {}
  std::string Pick(const Strings& options) {
    std::string out(options[v_ % options.size()]);
    v_ /= options.size();
    return out;
  }

 private:
  size_t v_;
};

const Strings kTypes = {"float", "c10::BFloat16", "c10::Half", "double"};
const Strings kCutlassTypes = {"cutlass::bfloat16_t", "cutlass::half_t"};
const Strings kFunctors = {"CUDAFunctor_add",     "MulFunctor",  "AbsFunctor",
                           "GeluCUDAKernelImpl",  "FillFunctor", "BinaryFunctor",
                           "sigmoid_kernel_cuda", "DivFunctor",  "CompareEqFunctor",
                           "where_kernel_impl",   "silu_kernel", "neg_kernel_cuda"};
const Strings kReduceOps = {"func_wrapper_t<float, at::native::sum_functor<float, float, float>>",
                            "MeanOps<float, float, float, float>",
                            "MaxOps<float>",
                            "NormTwoOps<float, float, float>",
                            "ArgMaxOps<float>",
                            "WelfordOps<float, float, int, thrust::pair<float, float>>"};

std::string Mangle(std::string_view short_name, const std::string& demangled) {
  // Not a real Itanium mangling, but shaped like one: nested name, template args folded into a
  // hash so distinct demangled names stay distinct.
  uint64_t h = 1469598103934665603ULL;
  for (char c : demangled) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return "_ZN2at6native" + std::to_string(short_name.size()) + std::string(short_name) + "ILi" +
         buf + "EEEvT_";
}

KernelName Elementwise(size_t v) {
  Digits d(v);
  std::string vec = d.Pick({"4", "2", "8"});
  std::string f = d.Pick(kFunctors);
  std::string t = d.Pick(kTypes);
  std::string arity = d.Pick({"3", "2", "4"});
  std::string functor = "at::native::" + f + "<" + t + ">";
  std::string array = "at::detail::Array<char*, " + arity + ">";
  KernelName k;
  k.short_name = "vectorized_elementwise_kernel";
  k.demangled = "void at::native::vectorized_elementwise_kernel<" + vec + ", " + functor + ", " +
                array + ">(int, " + functor + ", " + array + ")";
  return k;
}

KernelName Unrolled(size_t v) {
  Digits d(v);
  std::string f = d.Pick(kFunctors);
  std::string t = d.Pick(kTypes);
  std::string u = d.Pick({"4", "8"});
  std::string functor = "at::native::" + f + "<" + t + ">";
  KernelName k;
  k.short_name = "elementwise_kernel";
  std::string lambda = "at::native::gpu_kernel_impl_nocast<" + functor +
                       ">(at::TensorIteratorBase&, " + functor + " const&)::{lambda(int)#1}";
  k.demangled =
      "void at::native::elementwise_kernel<128, " + u + ", " + lambda + ">(int, " + lambda + ")";
  return k;
}

KernelName Reduce(size_t v) {
  Digits d(v);
  std::string threads = d.Pick({"512", "256", "128"});
  std::string vt = d.Pick({"1", "4", "2"});
  std::string op = d.Pick(kReduceOps);
  std::string t = d.Pick(kTypes);
  std::string reduce =
      "at::native::ReduceOp<" + t + ", at::native::" + op + ", unsigned int, " + t + ", 4>";
  KernelName k;
  k.short_name = "reduce_kernel";
  k.demangled =
      "void at::native::reduce_kernel<" + threads + ", " + vt + ", " + reduce + ">(" + reduce + ")";
  return k;
}

KernelName CutlassGemm(size_t v) {
  Digits d(v);
  std::string dt = d.Pick({"s1688", "h16816", "bf16_s16816", "s16816"});
  std::string tile = d.Pick(
      {"128x128_32x3", "256x128_32x3", "128x256_64x3", "64x64_32x6", "128x64_32x6", "256x64_64x4"});
  std::string layout = d.Pick({"nn", "nt", "tn", "tt"});
  std::string align = d.Pick({"4", "8", "2"});
  std::string name = "cutlass_80_tensorop_" + dt + "gemm_" + tile + "_" + layout + "_align" + align;
  KernelName k;
  k.short_name = "Kernel2";
  k.demangled = "void cutlass::Kernel2<" + name + ">(" + name + "::Params)";
  return k;
}

KernelName CublasSm90(size_t v) {
  Digits d(v);
  std::string dt = d.Pick(
      {"bf16bf16_bf16f32_f32", "f16f16_f16f32_f32", "e4m3e4m3_bf16f32_f32", "tf32tf32_f32f32_f32"});
  std::string layout = d.Pick({"tn", "nt", "nn"});
  std::string tile = d.Pick({"128x128x64", "128x256x64", "256x128x64", "64x128x64", "128x64x64"});
  std::string wg = d.Pick({"1x1x1", "2x1x1"});
  std::string seg =
      d.Pick({"execute_segment_k_off_kernel__5x_cublas", "execute_segment_k_on_kernel__5x_cublas"});
  KernelName k;
  k.demangled = "sm90_xmma_gemm_" + dt + "_" + layout + "_n_tilesize" + tile + "_warpgroupsize" +
                wg + "_" + seg;
  k.short_name = k.demangled;
  k.mangled = k.demangled;
  return k;
}

KernelName Flash(size_t v) {
  Digits d(v);
  std::string hd = d.Pick({"128", "64", "256", "96"});
  std::string bm = d.Pick({"128", "64"});
  std::string bn = d.Pick({"64", "128", "32"});
  std::string warps = d.Pick({"4", "8"});
  std::string t = d.Pick(kCutlassTypes);
  std::string dropout = d.Pick({"false", "true"});
  std::string traits = "Flash_fwd_kernel_traits<" + hd + ", " + bm + ", " + bn + ", " + warps +
                       ", false, false, " + t + ", Flash_kernel_traits<" + hd + ", " + bm + ", " +
                       bn + ", " + warps + ", " + t + ">>";
  KernelName k;
  k.short_name = "flash_fwd_kernel";
  k.demangled = "void pytorch_flash::flash_fwd_kernel<" + traits + ", " + dropout +
                ", true, false, false, false, true, false, false>(pytorch_flash::Flash_fwd_params)";
  return k;
}

KernelName Softmax(size_t v) {
  Digits d(v);
  std::string ilp = d.Pick({"4", "8", "2"});
  std::string t = d.Pick(kTypes);
  std::string epi = d.Pick({"SoftMaxForwardEpilogue", "LogSoftMaxForwardEpilogue"});
  std::string acc = d.Pick({"float", "double"});
  KernelName k;
  k.short_name = "cunn_SoftMaxForward";
  k.demangled = "void at::native::(anonymous namespace)::cunn_SoftMaxForward<" + ilp + ", " + t +
                ", " + acc + ", " + t + ", at::native::(anonymous namespace)::" + epi + ">(" + t +
                "*, " + t + " const*, int)";
  return k;
}

KernelName LayerNorm(size_t v) {
  Digits d(v);
  std::string t = d.Pick(kTypes);
  std::string which = d.Pick({"vectorized_layer_norm_kernel", "layer_norm_grad_input_kernel",
                              "GammaBetaBackwardCUDAKernel", "RowwiseMomentsCUDAKernel"});
  std::string acc = d.Pick({"float", "double"});
  std::string extra = d.Pick({"", ", true", ", false"});
  KernelName k;
  k.short_name = which;
  k.demangled = "void at::native::(anonymous namespace)::" + which + "<" + t + ", " + acc + extra +
                ">(int, " + acc + ", " + t + " const*, " + t + " const*, " + t + " const*, " + acc +
                "*, " + acc + "*, " + t + "*)";
  return k;
}

KernelName Nccl(size_t v) {
  Digits d(v);
  std::string coll = d.Pick({"AllReduce", "AllGather", "ReduceScatter", "SendRecv", "Broadcast"});
  std::string op = d.Pick({"Sum", "Max", "MinMax"});
  std::string dt = d.Pick({"bf16", "f32", "f16", "u8"});
  std::string algo = d.Pick({"RING", "TREE", "NVLS"});
  std::string proto = d.Pick({"LL", "SIMPLE", "LL128"});
  KernelName k;
  k.short_name = "ncclDevKernel_" + coll + "_" + op + "_" + dt + "_" + algo + "_" + proto;
  k.demangled = k.short_name + "(ncclDevKernelArgsStorage<4096ul>)";
  k.mangled = "_Z" + std::to_string(k.short_name.size()) + k.short_name +
              "24ncclDevKernelArgsStorageILm4096EE";
  return k;
}

KernelName Triton(size_t v) {
  Digits d(v);
  std::string kind = d.Pick({"poi", "red", "per"});
  std::string ops =
      d.Pick({"_to_copy_add_mul", "add_native_layer_norm", "gelu_mul", "_softmax_div_masked_fill",
              "cat_clone", "mean_pow_rsqrt", "embedding_add", "convert_element_type_silu"});
  KernelName k;
  k.demangled = "triton_" + kind + "_fused_" + ops + "_" + std::to_string(v);
  k.short_name = k.demangled;
  k.mangled = k.demangled;
  return k;
}

KernelName Ampere(size_t v) {
  Digits d(v);
  std::string dt = d.Pick({"s", "h", "bf16_s", "fp16_s"});
  std::string tile = d.Pick({"128x64", "64x64", "128x128", "256x128", "64x32"});
  std::string layout = d.Pick({"nn", "nt", "tn", "tt"});
  std::string sliced = d.Pick({"", "_sliced1x2", "_sliced1x4"});
  KernelName k;
  k.demangled = "ampere_" + dt + "gemm_" + tile + sliced + "_ldg8_f2f_stages_64x3_" + layout;
  k.short_name = k.demangled;
  k.mangled = k.demangled;
  return k;
}

struct Family {
  KernelName (*make)(size_t);
  int64_t min_ns;  // typical duration range of the family
  int64_t max_ns;
};

const std::array<Family, 11> kFamilies = {{
    {Elementwise, 1500, 30000},
    {Unrolled, 2000, 40000},
    {Reduce, 3000, 60000},
    {CublasSm90, 10000, 600000},
    {Softmax, 3000, 80000},
    {LayerNorm, 3000, 50000},
    {Triton, 2000, 60000},
    {CutlassGemm, 10000, 500000},
    {Flash, 20000, 900000},
    {Ampere, 10000, 400000},
    {Nccl, 20000, 2000000},
}};

}  // namespace

std::vector<KernelName> MakeKernelNames(size_t count) {
  std::vector<KernelName> names;
  names.reserve(count);
  std::unordered_set<std::string> seen;
  Rng rng(0x6b65726e656c73ULL);  // fixed: names do not depend on --seed
  for (size_t i = 0; i < count; ++i) {
    const Family& family = kFamilies[i % kFamilies.size()];
    KernelName k = family.make(i / kFamilies.size());
    // Parameter lists are finite; past their product a variant repeats, so make it distinct.
    for (int clone = 2; !seen.insert(k.demangled).second; ++clone) {
      k.demangled += " [clone " + std::to_string(clone) + "]";
    }
    if (k.mangled.empty()) k.mangled = Mangle(k.short_name, k.demangled);
    k.base_ns = rng.LogUniform(family.min_ns, family.max_ns);
    k.grid_x = rng.LogUniform(1, 65535);
    k.block_x = int64_t{64} << rng.Range(0, 4);
    k.registers = rng.Range(16, 255);
    k.static_shared = rng.Chance(0.5) ? 0 : rng.Range(1, 48) * 1024;
    k.dynamic_shared = rng.Chance(0.7) ? 0 : rng.Range(1, 200) * 1024;
    names.push_back(std::move(k));
  }
  return names;
}

const std::vector<ApiName>& OtherApiNames() {
  static const std::vector<ApiName> kNames = {
      {"cudaStreamSynchronize_v3020", 0, 2000, true, false},
      {"cudaEventRecord_v3020", 0, 2500, false, false},
      {"cudaStreamWaitEvent_v3020", 0, 1500, false, false},
      {"cudaStreamIsCapturing_v10000", 0, 400, false, false},
      {"cudaEventQuery_v3020", 0, 900, false, false},
      {"cudaFuncGetAttributes_v3020", 0, 1200, false, false},
      {"cuGetProcAddress_v2", 1, 600, false, false},
      {"cudaMallocAsync_v11020", 0, 3000, false, false},
      {"cudaFreeAsync_v11020", 0, 2500, false, false},
      {"cudaPointerGetAttributes_v4000", 0, 700, false, false},
      {"cudaDeviceGetAttribute_v5000", 0, 300, false, false},
      {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags_v7000", 0, 2000, false, false},
      {"cudaFuncSetAttribute_v9000", 0, 1500, false, false},
      {"cudaStreamGetPriority_v5050", 0, 400, false, false},
      {"cudaEventCreateWithFlags_v3020", 0, 1800, false, false},
      {"cudaEventDestroy_v3020", 0, 1600, false, false},
      {"cudaEventSynchronize_v3020", 0, 20000, false, false},
      {"cudaStreamQuery_v3020", 0, 800, false, false},
      {"cudaMemGetInfo_v3020", 0, 90000, false, false},
      {"cudaDeviceSynchronize_v3020", 0, 5000, false, true},
      {"cudaMalloc_v3020", 0, 200000, false, false},
      {"cudaFree_v3020", 0, 150000, false, false},
      {"cudaHostAlloc_v3020", 0, 400000, false, false},
      {"cudaMallocHost_v3020", 0, 350000, false, false},
      {"cudaFreeHost_v3020", 0, 250000, false, false},
      {"cudaGraphLaunch_v10000", 0, 12000, false, false},
      {"cudaStreamBeginCapture_v10000", 0, 3000, false, false},
      {"cudaStreamEndCapture_v10000", 0, 30000, false, false},
      {"cudaGraphInstantiateWithFlags_v11040", 0, 900000, false, false},
      {"cudaStreamCreateWithPriority_v5050", 0, 25000, false, false},
      {"cudaDeviceGetStreamPriorityRange_v5050", 0, 500, false, false},
      {"cudaGetDeviceProperties_v2_v12000", 0, 60000, false, false},
      {"cuModuleGetLoadingMode", 1, 900, false, false},
      {"cuLibraryLoadData", 1, 800000, false, false},
      {"cuLibraryGetModule", 1, 2000, false, false},
      {"cuModuleGetFunction", 1, 1500, false, false},
      {"cuCtxGetCurrent", 1, 300, false, false},
      {"cuDevicePrimaryCtxRetain", 1, 2000000, false, false},
      {"cuMemAlloc_v2", 1, 180000, false, false},
      {"cuStreamGetCaptureInfo_v2", 1, 500, false, false},
  };
  return kNames;
}

const std::vector<OsrtName>& OsrtNames() {
  static const std::vector<OsrtName> kNames = {
      {"pthread_mutex_lock", 1500},
      {"ioctl", 6000},
      {"poll", 400000},
      {"pthread_cond_wait", 200000},
      {"read", 8000},
      {"write", 7000},
      {"sem_timedwait", 300000},
      {"epoll_wait", 500000},
      {"pthread_cond_timedwait", 250000},
      {"futex", 30000},
      {"recvmsg", 9000},
      {"sendmsg", 12000},
      {"open64", 20000},
      {"close", 4000},
      {"fopen64", 25000},
      {"fclose", 6000},
      {"mmap64", 15000},
      {"munmap", 20000},
      {"nanosleep", 100000},
      {"pthread_rwlock_rdlock", 1200},
  };
  return kNames;
}

const std::vector<std::string>& NvtxNames() {
  static const std::vector<std::string> kNames = {
      "aten::add_",
      "aten::mul",
      "aten::linear",
      "aten::matmul",
      "aten::addmm",
      "aten::copy_",
      "aten::to",
      "aten::empty",
      "aten::view",
      "aten::layer_norm",
      "aten::native_layer_norm",
      "aten::gelu",
      "aten::softmax",
      "aten::_softmax",
      "aten::dropout",
      "aten::sum",
      "aten::mean",
      "aten::cat",
      "aten::bmm",
      "aten::transpose",
      "aten::contiguous",
      "aten::embedding",
      "aten::_scaled_dot_product_flash_attention",
      "forward",
      "backward",
      "optimizer.step",
      "zero_grad",
      "DataLoader.__next__",
      "train_step",
      "nccl:all_reduce",
      "loss.backward",
      "autograd::engine::evaluate_function: AddmmBackward0",
  };
  return kNames;
}

std::string ThreadName(size_t index, const std::string& process_name) {
  static const std::array<std::string_view, 6> kNames = {"pt_autograd_0",  "pt_data_worker",
                                                         "cuda-EvtHandlr", "pt_nccl_watchdg",
                                                         "python_gc",      "pt_autograd_1"};
  if (index == 0) return process_name;
  return std::string(kNames[(index - 1) % kNames.size()]) +
         (index > kNames.size() ? "_" + std::to_string(index) : "");
}

}  // namespace gsys::bench
