// A closing report: the line a program prints once when it is done, saying how long the whole of
// it took (`Time: 2.997 s`, `run() total_time=1311.481`, `Time taken for Modeling: 0 hours 21
// minutes and 57.79 seconds.`) or its final result (`final score: 5000/5000 = 100.00% correct`).
// Printed once, after the progress ended, it is a trainer's way of saying it finished without any
// word of "training finished": the generic reader takes it as the end of training there.
#pragma once

#include <string_view>

namespace aerun::logread {

// Whether line reports the whole run's duration or its final result: a duration (a number with a
// time unit, h:mm:ss, or a total's time by name) with a word of time, or `final` with a value;
// never a period of the loop (epoch, step, iteration, batch, a rate per it) nor a phase of it
// (evaluation, validation, a checkpoint, loading, saving, data). The caller checks that it is
// printed once and after the last progress line.
bool reports_run_totals(std::string_view line);

}  // namespace aerun::logread
