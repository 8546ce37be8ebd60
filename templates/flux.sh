#!/bin/bash
#flux: --output={{output}}.flux
{{directives}}
# Written by aerun for case {{case}} ({{case_file}}): {{runs_count}} run (flux batch has no job
# arrays: a sweep is a job per run). Placeholders: docs/schedulers.md. The run's output goes to
# its log as it runs; the --output file beside it keeps what Flux itself says. The stamps file
# records when and where the job started and ended (queue wait, startup).
aerun_task={{task_index}}
{{runs}}
exec >"$AERUN_LOG" 2>&1
printf 'start %s %s %s\n' "$(date +%s.%N)" "$(hostname)" {{job_id}} >"$AERUN_STAMPS"
cd {{workdir|q}} || { printf 'end %s 97\n' "$(date +%s.%N)" >>"$AERUN_STAMPS"; exit 97; }
{{env}}
{{launch}}
{{run}}
printf 'end %s %s\n' "$(date +%s.%N)" "$aerun_rc" >>"$AERUN_STAMPS"
exit "$aerun_rc"
