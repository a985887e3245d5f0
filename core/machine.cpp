// core/machine.cpp: see core/machine.h.
#include "core/machine.h"

#include <fstream>
#include <map>

#ifndef ORDO_REAL_DOUBLE
#include <oneapi/dnnl/dnnl.h>
#endif

namespace ordo {
namespace {

// The first processor's fields of /proc/cpuinfo ("vendor_id" -> "AuthenticAMD"); empty where
// the file is missing (not Linux).
std::map<std::string, std::string> cpuinfo() {
  std::map<std::string, std::string> fields;
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line) && !line.empty();) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    auto trim = [](std::string s) {
      const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
      return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
    };
    fields[trim(line.substr(0, colon))] = trim(line.substr(colon + 1));
  }
  return fields;
}

std::string cpu() {
  auto f = cpuinfo();
  auto get = [&](const char* key) { return f.count(key) ? f[key] : std::string("?"); };
  if (f.empty()) return "unknown CPU";
  std::string out = get("vendor_id") + " family " + get("cpu family") + " model " + get("model") + " stepping " +
                    get("stepping");
  if (f.count("model name")) out += " (" + f["model name"] + ")";
  for (char& c : out)
    if (c == ';' || c == '\n') c = ',';
  return out;
}

const char* compiled_for() {
#if defined(__AVX512F__)
  return "avx512f";
#elif defined(__AVX2__)
  return "avx2";
#elif defined(__AVX__)
  return "avx";
#elif defined(__SSE4_2__)
  return "sse4.2";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "the baseline instruction set";
#endif
}

#ifndef ORDO_REAL_DOUBLE
std::string onednn() {
  const dnnl_version_t* v = dnnl_version();
  const char* isa = "an instruction set it does not name";
  switch (dnnl_get_effective_cpu_isa()) {
    case dnnl_cpu_isa_all: isa = "all"; break;
    case dnnl_cpu_isa_sse41: isa = "sse41"; break;
    case dnnl_cpu_isa_avx: isa = "avx"; break;
    case dnnl_cpu_isa_avx2: isa = "avx2"; break;
    case dnnl_cpu_isa_avx512_core: isa = "avx512_core"; break;
    case dnnl_cpu_isa_avx512_core_vnni: isa = "avx512_core_vnni"; break;
    case dnnl_cpu_isa_avx512_core_bf16: isa = "avx512_core_bf16"; break;
    case dnnl_cpu_isa_avx512_core_amx: isa = "avx512_core_amx"; break;
    case dnnl_cpu_isa_avx2_vnni: isa = "avx2_vnni"; break;
    default: break;
  }
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
         " on " + isa;
}
#endif

}  // namespace

std::string machine_description() {
#ifdef ORDO_REAL_DOUBLE
  const std::string gemm = "float64 plain loops";
#else
  const std::string gemm = onednn();
#endif
  return cpu() + "; built for " + compiled_for() + "; " + gemm;
}

}  // namespace ordo
