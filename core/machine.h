// core/machine.h: the machine a run's numbers come from, in one line.
//
// ordo gives the same bits for any thread count and rank count on one CPU type
// (docs/spec.md §9), not across CPU types: oneDNN picks its kernels by the instruction set it
// finds at run time, and ordo's own kernels are compiled for the build machine
// (-march=native). So each run records where its steps were taken (RunLog::machines), and
// `ordo bench` names the machine of its table.
#pragma once

#include <string>

namespace ordo {

// "AuthenticAMD family 26 model 2 stepping 1 (AMD EPYC); built for avx512f; oneDNN 2.6.3 on
// avx512_core_bf16": the CPU (/proc/cpuinfo's vendor, family, model, stepping and model
// name), the widest vector extension this build was compiled for, and oneDNN's version and
// the instruction set it dispatches to (the float64 build: "float64 plain loops"). Its three
// parts are separated by "; " (none holds one) and it never holds a newline.
std::string machine_description();

}  // namespace ordo
