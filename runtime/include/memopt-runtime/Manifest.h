//===- Manifest.h - memopt launch manifest model and loader -----*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the in-memory form of a memopt launch manifest (format
// version 1, docs/manifest.md) and the functions that load and validate it.
// Every validation error names the file and the offending field, e.g.
// "w1.baseline.json: buffers[5].alias_of: buffer 9 does not exist".
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_RUNTIME_MANIFEST_H
#define MEMOPT_RUNTIME_MANIFEST_H

#include "memopt-runtime/Json.h"
#include "memopt-runtime/Status.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memopt::runtime {

/// Element types a buffer can hold. I1 is stored as one byte per element.
enum class DType { F32, F16, BF16, F64, I8, I16, I32, I64, I1 };

/// Parses "f32", "bf16", ...; returns false for unknown names.
bool parseDType(const std::string &name, DType &out);
/// Returns the manifest spelling of a dtype.
const char *dtypeName(DType type);
/// Bytes per element (I1 is 1).
unsigned dtypeSize(DType type);
/// True for F32, F16, BF16, F64.
bool isFloat(DType type);

enum class BufferRole { Input, Output, Temp, Alias };
const char *roleName(BufferRole role);

/// How a derived buffer relates to a signature buffer (docs/manifest.md,
/// "Derived buffers"). Only "aos-field" exists: element i of the derived
/// buffer is element i * record + field of the source. A derived input is
/// gathered from its (host-only) source input before upload; a derived
/// output is scattered into its host-only source output after download.
struct DerivedInfo {
  enum class Kind { None, AosField };
  Kind kind = Kind::None;
  int64_t source = -1; ///< id of the signature buffer it is part of
  int64_t record = 1;  ///< elements per record of the source (F)
  int64_t field = 0;   ///< field index within a record, 0 <= field < record
};

/// A field of a host-only output that the program does not compute: the
/// host copies it from a field of a signature input (same shape and dtype).
struct PassThroughField {
  int64_t field = 0;       ///< field of the output's records
  int64_t source = -1;     ///< id of the signature input
  int64_t sourceField = 0; ///< field of the input's records
};

struct Buffer {
  int64_t id = 0;
  std::string name;
  BufferRole role = BufferRole::Temp;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  int64_t bytes = 0;
  /// Alias only: the aliased (allocated) buffer and the byte offset into it.
  int64_t aliasOf = -1;
  int64_t offsetBytes = 0;
  /// Part of the function's signature (an input filled from the seed like
  /// any input, or an output compared like any output) but never allocated
  /// on the device nor passed to kernels or to a host entry point: derived
  /// buffers are computed from it (inputs) or assembled into it (outputs).
  bool hostOnly = false;
  /// Contents related to a signature buffer by a layout conversion: a
  /// derived input is computed on the host from its source instead of
  /// filled from the seed; a derived output is written by the program and
  /// scattered into its source. Derived buffers are not part of the
  /// signature; their ids follow the outputs.
  DerivedInfo derived;
  /// Host-only outputs only: fields the host copies from an input.
  std::vector<PassThroughField> passThrough;
  /// Inputs only: the i8 storage of a sub-byte integer tensor ("packed":
  /// {"dtype": "i4", "shape": [...]}), `8 / packedBits` elements to a byte,
  /// low bits first; 0 when the buffer is not packed. Its elements are
  /// filled from the seed as uniformly random bytes.
  int packedBits = 0;
  std::vector<int64_t> packedShape;

  /// Number of elements: product of the shape (1 for rank 0).
  int64_t numElements() const;
  bool isDerived() const { return derived.kind != DerivedInfo::Kind::None; }
  /// A signature buffer: a non-derived input, or an output. These have the
  /// same ids, roles, dtypes and shapes in every pipeline of one function.
  bool isSignature() const {
    return (role == BufferRole::Input || role == BufferRole::Output) &&
           !isDerived();
  }
  /// Has a device allocation of its own (not an alias, not host-only).
  bool isAllocated() const { return role != BufferRole::Alias && !hostOnly; }
};

/// One kernel argument.
struct KernelArg {
  enum class Kind { Buffer, I64, I32, F32 };
  Kind kind = Kind::Buffer;
  int64_t bufferId = -1;
  int64_t intValue = 0;
  float floatValue = 0.0f;
};

/// One schedule step: a kernel launch or a device-to-device copy.
struct Step {
  enum class Kind { Launch, Copy };
  Kind kind = Kind::Launch;
  // Launch.
  std::string kernel;
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{1, 1, 1};
  /// Thread-block cluster shape; {1, 1, 1} launches without clusters.
  std::array<unsigned, 3> cluster{1, 1, 1};
  /// The kernel walks its work in a grid-stride loop over clusters along x:
  /// the runtime may launch fewer (as many as fit on the device at once).
  bool persistent = false;
  unsigned sharedBytes = 0;
  std::vector<KernelArg> args;
  // Copy.
  int64_t src = -1, dst = -1, copyBytes = 0;
  /// Modelled bytes; for a copy step, bytes read = bytes written = copyBytes
  /// unless the manifest says otherwise.
  int64_t bytesRead = 0, bytesWritten = 0;

  /// "w1_kernel_0" for launches, "copy 4->3" for copies.
  std::string label() const;
};

/// A further evaluation of the function shipped with a literal reference
/// ("f64_reference", "pairwise_reference", "perturbed_reference"): its
/// library (resolved) and the
/// ids its entry point takes (empty: the manifest's default order).
struct ReferenceVariant {
  std::string libraryFile;
  /// Its entry point; empty: the manifest's symbol.
  std::string symbol;
  std::vector<int64_t> entryArgs;
};

struct Manifest {
  /// Path the manifest was loaded from, and its directory (for ptx/library).
  std::string path;
  std::string directory;
  std::string function;
  std::string pipeline; // baseline | optimized | reference
  std::string chip, ptxVersion;
  std::string ptxFile;     // absolute or relative to cwd, resolved
  std::string libraryFile; // reference only, resolved
  std::string symbol;      // reference only
  std::vector<Buffer> buffers; // sorted by id, ids dense from 0
  std::vector<Step> schedule;
  int64_t minBytes = 0;
  int64_t modelBytesRead = 0, modelBytesWritten = 0;
  /// Host pipelines only: the buffer ids bound to the entry point's pointer
  /// arguments, in order, as the manifest's "entry_args" lists them; empty
  /// when the manifest has none (see hostEntryArgs()).
  std::vector<int64_t> entryArgs;
  /// Reference manifests from memopt-compile --pipeline=reference: the
  /// function computed in f64 and rounded once, and computed in its own
  /// precision with its reductions in a pairwise order, and in its own
  /// precision with every rounding perturbed (memopt-perturb-rounding).
  std::optional<ReferenceVariant> f64Reference, pairwiseReference,
      perturbedReference;
  /// Host pipelines: the value the caller sets the library's public
  /// `memopt_rounding_seed` to before calling it (0: left alone; the
  /// perturbed reference only).
  uint64_t roundingSeed = 0;

  /// This manifest with `v`'s library and entry arguments: a reference
  /// whose host entry point is the variant's.
  Manifest withVariant(const ReferenceVariant &v) const;

  /// Signature inputs: inputs that are not derived (host-only ones count).
  /// Their ids are 0 .. numInputs()-1; the signature outputs follow
  /// (numOutputs() counts those, host-only ones included).
  unsigned numInputs() const;
  unsigned numOutputs() const;
  /// Derived inputs (ids after the outputs).
  unsigned numDerived() const;
  /// Derived outputs (ids after the outputs).
  unsigned numDerivedOutputs() const;
  /// The ids passed to a host entry point, in order: entryArgs if the
  /// manifest has "entry_args", else every input that is not host-only
  /// (derived ones included), then every output that is not host-only
  /// (derived ones included), each in id order.
  std::vector<int64_t> hostEntryArgs() const;
  /// Sum of the schedule's modelled bytes (read, written).
  int64_t scheduleBytesRead() const;
  int64_t scheduleBytesWritten() const;
  /// Resolves an alias to (allocated buffer id, byte offset).
  void resolve(int64_t id, int64_t &baseId, int64_t &offset) const;
};

/// Builds a manifest from parsed JSON and validates it. `path` is used in
/// messages and to resolve the ptx/library file names. Errors have kind
/// Manifest and name the field.
Expected<Manifest> manifestFromJson(const json::Value &root,
                                    const std::string &path);

/// Reads, parses and validates a manifest file.
Expected<Manifest> loadManifest(const std::string &path);

/// Checks that `other` has the same signature buffers (non-derived inputs
/// and outputs: ids, roles, dtypes, shapes) as `base`, naming both files and
/// the buffer on mismatch. host_only flags and derived buffers (which only
/// one of the manifests may have) are not compared.
Status checkCompatible(const Manifest &base, const Manifest &other);

/// Reads a whole file into `out`; the error (kind Manifest) names the path.
Status readFile(const std::string &path, std::string &out);

} // namespace memopt::runtime

#endif // MEMOPT_RUNTIME_MANIFEST_H
