#!/bin/bash
#PBS -N {{job_name}}
#PBS -o {{output}}
#PBS -j oe
#PBS -k doe
{{directives}}
# Written by aerun for case {{case}} ({{case_file}}): {{runs_count}} run(s), one per array index.
# Placeholders: docs/schedulers.md. -j oe -k doe: stdout and stderr go straight to the output
# file (the run's log) while the job runs. The stamps file records when and where the job
# started and ended (queue wait, startup).
aerun_task={{task_index}}
{{runs}}
printf 'start %s %s %s\n' "$(date +%s.%N)" "$(hostname)" {{job_id}} >"$AERUN_STAMPS"
cd {{workdir|q}} || { printf 'end %s 97\n' "$(date +%s.%N)" >>"$AERUN_STAMPS"; exit 97; }
{{env}}
{{launch}}
{{run}}
printf 'end %s %s\n' "$(date +%s.%N)" "$aerun_rc" >>"$AERUN_STAMPS"
exit "$aerun_rc"
