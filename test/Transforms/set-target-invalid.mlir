// RUN: memopt-opt %s -verify-diagnostics --pass-pipeline="builtin.module(memopt-set-target{chip=sm_75})" -o /dev/null

// A chip missing from the table of known chips is an error.
// expected-error @+1 {{memopt-set-target: unknown chip 'sm_75' (known: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100)}}
module {
}
