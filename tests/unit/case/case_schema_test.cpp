// The JSON Schema `aerun schema` prints and the loader agree on the keys: every map the loader
// reads with a fixed set of keys has exactly those keys as the schema's properties at that place,
// and every such object of the schema is reached by the cases read here. (Shipped cases are also
// validated against the schema by Debian's python3-jsonschema: tests/schema_test.py.)
#include "aerun/case/case_schema.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>

#include "aerun/case/case_loader.hpp"
#include "case/yaml_reader.hpp"

using nlohmann::json;

namespace {

// Keys seen by the loader: map key path -> valid keys.
std::map<std::string, std::set<std::string>>* seen = nullptr;

void observe(const std::string& key, const std::vector<std::string>& valid) {
  (*seen)[key] = std::set<std::string>(valid.begin(), valid.end());
}

// Every case section with a fixed set of keys, in one or two loadable cases.
const char* kEverySection = R"yaml(case: sink
title: t
paper: p
figure: f
workdir: .
shell: /bin/bash
env: {A: 1}
provenance: {torch: 'python -c 1', nccl: {command: 'true', timeout: 5s}}
rundir: {path: 'runs/{case}/{key}', copy: [a.json], link: data, keep: failed}
steps: {build: {command: 'make -C {method}', depends_on: [method], timeout: 30m}, fetch: 'true'}
params: {method: [a, b], layers: [16, 32], nodes: 1}
zip:
  - {z1: [1, 2], z2: [3, 4]}
include:
  - {method: a, layers: 48}
exclude:
  - {method: b, layers: 16}
  - 'layers > 40 && z1 > 1'
derive: {twice: layers * 2}
command: echo it/s={layers} step {layers}/100 {launch}
repeat: 2
timeout: 10m
retries: {count: 1, on: [oom]}
rerun: [failed]
exclusive: gpu
stall: 5m
first_step: 5m
poll_interval: 1s..10s
presets: [megatron]
metrics:
  rate: {regex: 'it/s=([0-9.]+)', reduce: mean, skip: 1, unit: it/s, scale: 1, series: true,
         progress: true, better: higher}
status:
  - {regex: 'boom', status: failed}
startup: {first_step: 'step 1/', job_start: 'start (\S+)', job_start_format: '%Y-%m-%d',
          step_time: 'at (\S+) step', step_time_format: '%Y-%m-%d', tz: UTC}
completion: {end: 'done', counter: 'step (\d+)/(\d+)'}
launcher: {kind: mpich, ranks_per_node: 1, nodes: 1, ranks: 1, cpu_bind: none, depth: 1,
           gpu_bind: none, extra_args: [-v], env: [A], gpus_per_node: 0, hostfile: hosts,
           mpi: pmix, program: mpiexec, master_port: 29500}
container: {image: a.sif, runtime: apptainer, mounts: [/d], gpus: none, env: {B: 1},
            shell: /bin/sh}
scheduler: slurm
resources: {nodes: 1, gpus_per_node: 0, tasks_per_node: 1, cpus_per_task: 1, walltime: 1h,
            partition: p, account: a, constraint: c, hint: nomultithread, exclusive: true,
            filesystems: home, extra: ['--comment=x'], array_cap: 4}
tables:
  t1:
    title: T
    rows: [method]
    columns:
      - {metric: rate, label: Rate, agg: mean, format: .2f, unit: it/s}
      - {speedup: rate, of: {method: a}, lower_is_better: false, label: S}
      - {metric: start, tz: UTC}
      - {metric: per_layer}
    where: {layers: [16, 32]}
    tolerance: 10%
    reference:
      - {method: a, Rate: 1.0}
    derive:
      per_layer: {formula: rate / layers, unit: it/s}
    runs_from: [sink]
  t2: {rows: [layers], columns: [rate], pivot: method}
plots:
  p1: {title: P, table: t2, kind: line, x: layers, y: rate, series: method, fit: linear,
       paper: false, xlabel: L, ylabel: R, logy: false}
systems:
  lab:
    workdir: .
    shell: /bin/bash
    env: {A: b}
    params: {layers: [16]}
    zip: []
    include: []
    exclude: []
    derive: {}
    command: echo {layers}
    repeat: 1
    timeout: 1h
    exclusive: gpu
    launcher: none
    scheduler: local
    resources: {}
    poll_interval: 5s
    stall: 10m
    first_step: 20m
    rundir: none
    steps: {}
    container: {}
)yaml";

const char* kSearch = R"yaml(case: sink2
params: {method: [a]}
search: {param: layers, min: 16, max: 64, step: 16, goal: largest_ok}
command: echo {method} {layers}
resources: {queue: q, project: p, place: scatter, template: t.sh, array: true}
)yaml";

// The schema object (with properties) that describes the value at a key path like
// "tables.t1.columns[2]", following $ref, oneOf branches, additionalProperties and items.
const json* object_at(const json& root, const std::string& path) {
  std::vector<std::string> parts;  // names, and "[]" for a list index
  std::string cur;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '.' || path[i] == '[') {
      if (!cur.empty()) parts.push_back(cur);
      cur.clear();
      if (path[i] == '[') {
        parts.push_back("[]");
        i = path.find(']', i);
      }
    } else {
      cur += path[i];
    }
  }
  if (!cur.empty()) parts.push_back(cur);
  const auto resolve = [&](const json* s) {
    while (s->contains("$ref")) {
      const std::string ref = (*s)["$ref"];  // "#/$defs/NAME"
      s = &root["$defs"][ref.substr(ref.rfind('/') + 1)];
    }
    return s;
  };
  // The alternatives a schema node stands for.
  const auto branches = [&](const json* s) {
    std::vector<const json*> out;
    s = resolve(s);
    if (s->contains("oneOf"))
      for (const auto& b : (*s)["oneOf"]) out.push_back(resolve(&b));
    else
      out.push_back(s);
    return out;
  };
  std::vector<const json*> here{&root};
  for (const auto& part : parts) {
    std::vector<const json*> next;
    for (const json* s : here)
      for (const json* b : branches(s)) {
        if (part == "[]") {
          if (b->contains("items")) next.push_back(&(*b)["items"]);
        } else if (b->contains("properties") && (*b)["properties"].contains(part)) {
          next.push_back(&(*b)["properties"][part]);
        } else if (b->contains("additionalProperties") &&
                   (*b)["additionalProperties"].is_object()) {
          next.push_back(&(*b)["additionalProperties"]);
        }
      }
    here = next;
  }
  for (const json* s : here)
    for (const json* b : branches(s))
      if (b->contains("properties")) return b;
  return nullptr;
}

std::set<std::string> properties(const json& object) {
  std::set<std::string> out;
  for (const auto& [k, v] : object["properties"].items()) out.insert(k);
  return out;
}

}  // namespace

TEST(CaseSchema, IsJsonSchemaDraft2020WithEveryDefinitionUsed) {
  const json schema = json::parse(aerun::case_schema_json());
  EXPECT_EQ(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
  const std::string text(aerun::case_schema_json());
  for (const auto& [name, def] : schema["$defs"].items())
    EXPECT_NE(text.find("\"#/$defs/" + name + "\""), std::string::npos) << name << " is unused";
}

TEST(CaseSchema, TheLoadersKeysAreTheSchemasPropertiesEverywhere) {
  const json schema = json::parse(aerun::case_schema_json());
  std::map<std::string, std::set<std::string>> keys;
  seen = &keys;
  aerun::detail::set_key_observer(observe);
  for (const char* text : {kEverySection, kSearch})
    EXPECT_NO_THROW(aerun::parse_case(text, "sink.yaml", ".")) << text;
  aerun::detail::set_key_observer(nullptr);
  seen = nullptr;
  ASSERT_GE(keys.size(), 14u);
  std::set<const json*> reached;
  for (const auto& [path, valid] : keys) {
    const json* object = object_at(schema, path);
    ASSERT_NE(object, nullptr) << "the schema has no object at '" << path << "'";
    EXPECT_EQ(properties(*object), valid) << "at '" << (path.empty() ? "(top)" : path) << "'";
    reached.insert(object);
  }
  // Every object of the schema with fixed keys is one the loader reads with those keys.
  std::vector<std::string> unreached;
  if (!reached.count(&schema)) unreached.push_back("(top)");
  for (const auto& [name, def] : schema["$defs"].items())
    if (def.contains("properties") && !reached.count(&def)) unreached.push_back(name);
  EXPECT_THAT(unreached, ::testing::IsEmpty());
}

TEST(CaseSchema, EveryShippedCaseLoadsAndUsesOnlyKeysTheSchemaNames) {
  const json schema = json::parse(aerun::case_schema_json());
  std::map<std::string, std::set<std::string>> keys;
  seen = &keys;
  aerun::detail::set_key_observer(observe);
  int cases = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(AERUN_CASES_DIR))
    if (e.path().extension() == ".yaml") {
      ++cases;
      EXPECT_NO_THROW(aerun::load_case(e.path().string())) << e.path();
    }
  aerun::detail::set_key_observer(nullptr);
  seen = nullptr;
  EXPECT_GE(cases, 15);
  for (const auto& [path, valid] : keys) {
    const json* object = object_at(schema, path);
    ASSERT_NE(object, nullptr) << path;
    EXPECT_EQ(properties(*object), valid) << path;
  }
}
