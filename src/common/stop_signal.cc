#include "common/stop_signal.h"

#include <signal.h>

namespace pgstorsim {
namespace {

std::atomic<bool> g_stop_requested{false};

extern "C" void OnStopSignal(int sig) {
  g_stop_requested.store(true);
  signal(sig, SIG_DFL);  // The next one kills as usual.
}

}  // namespace

const std::atomic<bool>* InstallStopSignals() {
  struct sigaction sa {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  return &g_stop_requested;
}

}  // namespace pgstorsim
