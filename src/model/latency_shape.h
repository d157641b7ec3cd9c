// StatementShape: what the model's latency distribution of one statement is built
// from (model/percentiles.h). Plain data. Units: ms, probabilities 0..1.
#ifndef PGSTORSIM_MODEL_LATENCY_SHAPE_H_
#define PGSTORSIM_MODEL_LATENCY_SHAPE_H_

namespace pgstorsim {

// A wait's gamma shape (its commands) is capped here: near-fixed (percentiles.cc).
inline constexpr double kMaxWaitCommands = 64;

// What a statement's distribution is built from (all >= 0).
struct StatementShape {
  double mean_ms = 0;          // The model's mean latency.
  double fixed_ms = 0;         // Always spent (CPU share, commit acknowledgement).
  double reads = 0;            // Block reads per execution (UPDATE accounts), else 0.
  double read_service_ms = 0;  // A read's service time without queueing.
  double busy = 0;             // Utilisation of the stations it waits at (0..1).
  double stall_ms = 0;         // > 0: its other waits come as stalls exactly this long
                               // (behind the OS's writes for write-back cache room),
                               // else an exponential wait.
  double saturated = 0;        // Share of time the destage stream saturates the disks (0..1).
  double command_ms = 0;       // A destage command's service (what a saturated wait counts).
  // A wait for capacity to free: write-back cache room, or a rate cap's next slice.
  double room_ms = 0;        // Mean wait for room per execution.
  double room_busy = 0;      // Probability that an execution waits for room (0..1).
  double room_commands = 1;  // Destage commands (>= 1) a wait for room spans: its gamma
                             // shape (squared coefficient of variation 1 / commands).
  double burst_mean_ms = 0;  // Mean wait in checkpoint bursts per execution (END).
  double burst_ms = 0;       // A commit's wait in a burst: that wait comes as stalls this long.
  double flush_wait_ms = 0;  // Mean wait for the WAL flush in progress per execution (END),
  double flush_ms = 0;       // a wait within one flush this long.
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_LATENCY_SHAPE_H_
