//===- Status.h - Error kinds, Status and Expected for the runtime -*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the exception-free error handling used throughout the
// memopt runtime: an error kind that maps onto memopt-run's exit codes, a
// Status for plain success or failure, and Expected<T> for a result or error.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_RUNTIME_STATUS_H
#define MEMOPT_RUNTIME_STATUS_H

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace memopt::runtime {

/// What went wrong. Each kind maps onto one memopt-run exit code.
enum class ErrorKind {
  /// Bad command line (exit 2).
  Usage,
  /// Malformed or inconsistent manifest, missing file (exit 2).
  Manifest,
  /// The CUDA driver library cannot be loaded or lacks an entry point (exit 3).
  NoDriver,
  /// The driver loaded but cuInit / device lookup failed: stub library, no
  /// device, insufficient driver (exit 3).
  NoDevice,
  /// A CUDA call failed after initialization (exit 4).
  Cuda,
  /// The CPU reference shared object could not be loaded or called (exit 2).
  Reference,
};

/// memopt-run exit codes.
enum ExitCode : int {
  kExitOk = 0,
  kExitVerificationFailed = 1,
  kExitUsage = 2,
  kExitNoGpu = 3,
  kExitCuda = 4,
};

/// Returns the memopt-run exit code for an error kind.
int exitCodeFor(ErrorKind kind);

/// An error: its kind and a complete, human-readable message.
struct Error {
  ErrorKind kind;
  std::string message;
};

/// Success, or an Error.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error error) : err(std::move(error)) {}
  static Status ok() { return Status(); }

  bool failed() const { return err.has_value(); }
  bool succeeded() const { return !err.has_value(); }
  /// Precondition: failed().
  const Error &error() const { return *err; }

private:
  std::optional<Error> err;
};

/// Convenience constructor for a failed Status / Expected.
inline Error makeError(ErrorKind kind, std::string message) {
  return Error{kind, std::move(message)};
}

/// A value of type T, or an Error.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : storage(std::move(value)) {}
  Expected(Error error) : storage(std::move(error)) {}

  bool failed() const { return std::holds_alternative<Error>(storage); }
  bool succeeded() const { return !failed(); }
  /// Precondition: failed().
  const Error &error() const { return std::get<Error>(storage); }
  /// Precondition: succeeded().
  T &value() { return std::get<T>(storage); }
  const T &value() const { return std::get<T>(storage); }
  T &operator*() { return value(); }
  T *operator->() { return &value(); }
  /// Converts the error into a Status. Precondition: failed().
  Status status() const { return Status(error()); }

private:
  std::variant<T, Error> storage;
};

} // namespace memopt::runtime

#endif // MEMOPT_RUNTIME_STATUS_H
