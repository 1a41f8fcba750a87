//===- Reference.cpp - Calling the CPU reference shared object --*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements ReferenceLibrary. C has no portable way to call a
// function with a run-time number of arguments, so the call dispatches on
// the count with one cast per arity.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Reference.h"

#include <cstring>
#include <dlfcn.h>

using namespace memopt::runtime;

ReferenceLibrary::~ReferenceLibrary() {
  if (handle)
    dlclose(handle);
}

Status ReferenceLibrary::open(const std::string &path,
                              const std::string &symbol) {
  name = path + ":" + symbol;
  handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return makeError(ErrorKind::Reference,
                     "cannot load CPU reference library '" + path +
                         "': " + (why ? why : "unknown error"));
  }
  dlerror();
  void *sym = dlsym(handle, symbol.c_str());
  if (!sym) {
    const char *why = dlerror();
    return makeError(ErrorKind::Reference,
                     "CPU reference library '" + path + "' has no symbol '" +
                         symbol + "'" + (why ? std::string(": ") + why : ""));
  }
  // Object-to-function pointer casts are only conditionally supported; a
  // memcpy of the representation is what dlsym users are meant to do.
  static_assert(sizeof(entry) == sizeof(sym), "function pointer size");
  std::memcpy(&entry, &sym, sizeof(entry));
  return Status::ok();
}

Status ReferenceLibrary::setRoundingSeed(uint64_t seed) const {
  void *sym = dlsym(handle, "memopt_rounding_seed");
  if (!sym)
    return makeError(ErrorKind::Reference,
                     name + ": no memopt_rounding_seed to set (not a "
                            "perturbed reference)");
  std::memcpy(sym, &seed, sizeof(seed));
  return Status::ok();
}

Expected<std::vector<void *>>
memopt::runtime::entryPointArgs(const Manifest &m,
                                std::vector<std::vector<unsigned char>> &bufs) {
  std::vector<int64_t> ids = m.hostEntryArgs();
  if (ids.size() > kMaxReferenceArgs)
    return makeError(ErrorKind::Reference,
                     m.path + ": entry point takes " +
                         std::to_string(ids.size()) +
                         " buffer arguments, at most " +
                         std::to_string(kMaxReferenceArgs) + " supported");
  std::vector<void *> args;
  for (int64_t id : ids) {
    const Buffer &b = m.buffers[static_cast<size_t>(id)];
    if (static_cast<size_t>(id) >= bufs.size() ||
        static_cast<int64_t>(bufs[static_cast<size_t>(id)].size()) != b.bytes)
      return makeError(ErrorKind::Manifest,
                       m.path + ": buffers[id=" + std::to_string(id) +
                           "]: no host copy of " + std::to_string(b.bytes) +
                           " bytes for the entry point");
    args.push_back(bufs[static_cast<size_t>(id)].data());
  }
  return args;
}

Status ReferenceLibrary::call(const std::vector<void *> &args) const {
  if (args.size() > kMaxReferenceArgs)
    return makeError(ErrorKind::Reference,
                     name + ": " + std::to_string(args.size()) +
                         " buffer arguments, at most " +
                         std::to_string(kMaxReferenceArgs) + " supported");
  using P = void *;
  void *const *a = args.data();
  (void)a;
  switch (args.size()) {
  case 0:
    reinterpret_cast<void (*)()>(entry)();
    break;
  case 1:
    reinterpret_cast<void (*)(P)>(entry)(a[0]);
    break;
  case 2:
    reinterpret_cast<void (*)(P, P)>(entry)(a[0], a[1]);
    break;
  case 3:
    reinterpret_cast<void (*)(P, P, P)>(entry)(a[0], a[1], a[2]);
    break;
  case 4:
    reinterpret_cast<void (*)(P, P, P, P)>(entry)(a[0], a[1], a[2], a[3]);
    break;
  case 5:
    reinterpret_cast<void (*)(P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4]);
    break;
  case 6:
    reinterpret_cast<void (*)(P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5]);
    break;
  case 7:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    break;
  case 8:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    break;
  case 9:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]);
    break;
  case 10:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
    break;
  case 11:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]);
    break;
  case 12:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
    break;
  case 13:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]);
    break;
  case 14:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]);
    break;
  case 15:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]);
    break;
  case 16:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]);
    break;
  case 17:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16]);
    break;
  case 18:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17]);
    break;
  case 19:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18]);
    break;
  case 20:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19]);
    break;
  case 21:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20]);
    break;
  case 22:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21]);
    break;
  case 23:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22]);
    break;
  case 24:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23]);
    break;
  case 25:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24]);
    break;
  case 26:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25]);
    break;
  case 27:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25], a[26]);
    break;
  case 28:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25], a[26], a[27]);
    break;
  case 29:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25], a[26], a[27], a[28]);
    break;
  case 30:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25], a[26], a[27], a[28], a[29]);
    break;
  case 31:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25], a[26], a[27], a[28], a[29], a[30]);
    break;
  case 32:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P)>(entry)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25], a[26], a[27], a[28], a[29], a[30], a[31]);
    break;
  }
  return Status::ok();
}
