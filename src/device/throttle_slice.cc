#include "device/throttle_slice.h"

#include <algorithm>
#include <cmath>

namespace pgstorsim {

double ThrottleSliceBudget(double iops) {
  return std::max(1.0, std::floor(iops * static_cast<double>(kThrottleSliceNs) / 1e9));
}

}  // namespace pgstorsim
