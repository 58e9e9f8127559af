"""Generate a synthetic corpus of PR review digests in the real entry format.

    python bench/make_corpus.py OUT_DIR --reviews N [--seed S] [--per-file K] [--check]

Writes N reviews as YAML pages (`repo:` + `entries:`), K reviews per page
(default 10), pages spread over folders of FILES_PER_DIR files each
(`OUT_DIR/part-000/digest-00000.yaml`, ...). Text is Chinese built from a pool
of phrases with backticked code references, sized like the bundled digest:
titles of 15-35 characters, a 1-3 sentence summary, 3-6 focus items, 0-4
read-order steps, 0-3 actions, 0-3 caveats, 2-4 tags out of ~45, verdicts
weighted deep 40% / quick 20% / skim 25% / skip 15%, unique PR numbers.

The output depends only on the arguments: the same seed writes the same bytes.
`--check` loads everything back through `tui.loader.load_paths` and
`tui.model.Library.build` and fails unless there are zero problems and exactly
N reviews.

This is a measurement tool, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

FILES_PER_DIR = 250

REPOS = (
    "vllm-project/vllm",
    "sgl-project/sglang",
    "pytorch/pytorch",
    "huggingface/transformers",
    "NVIDIA/TensorRT-LLM",
    "ROCm/aiter",
    "triton-lang/triton",
    "flashinfer-ai/flashinfer",
)

TAGS = (
    "rocm", "kernels", "refactor", "api-change", "input-path", "dead-code",
    "structured-output", "spec-decode", "reasoning", "tpu", "lora", "multimodal",
    "deprecation", "scheduler", "kv-cache", "prefix-cache", "quantization", "fp8",
    "moe", "attention", "sampling", "tokenizer", "distributed", "pipeline-parallel",
    "tensor-parallel", "cuda-graph", "compile", "triton", "testing", "ci", "docs",
    "perf", "memory", "bugfix", "security", "openai-api", "tool-calling", "metrics",
    "logging", "config", "cpu", "xpu", "model-support", "disaggregation", "benchmarks",
)  # fmt: skip

VERDICTS = ("deep", "quick", "skim", "skip")
VERDICT_WEIGHTS = (40, 20, 25, 15)
VERDICT_NOTES = {
    "deep": (
        "值得精读，且建议按「契约 → 消费方 → 测试」的顺序读：",
        "值得精读，尤其是维护该子系统的工程师。",
    ),
    "quick": ("值得快速精读一遍而不是逐行细看：", "快速通读即可，重点看接口变化。"),
    "skim": ("值得快速浏览，不必精读。", "扫一眼改动范围即可。"),
    "skip": ("无需精读，快速浏览即可。", "纯机械改动，可以跳过。"),
}

CODE_REFS = (
    "vllm/v1/core/sched/scheduler.py", "CustomOp.forward_hip", "CustomOp.forward_native",
    "dispatch_forward()", "vllm/models/glm5next/sparse_indexer.py", "async_tensor_h2d",
    "pin_memory()", "CpuGpuBuffer.copy_to_gpu", "vllm/v1/structured_output/__init__.py",
    "_get_constraint_start()", "ParserEngine.is_reasoning_end", "THINK_START",
    "turn_boundary_tokens", "tpu_input_batch.py", "GPUInputBatch", "TPUInputBatch",
    "mamba_utils.py", "vllm/model_executor/models/interfaces.py", "ultravox.py",
    "blip2.py", "llava_next_video.py", "KVCacheManager.allocate_slots",
    "vllm/v1/worker/gpu_model_runner.py", "SchedulerOutput", "BlockPool.get_new_blocks",
    "vllm/attention/backends/rocm_flash_attn.py", "fused_moe", "FusedMoE.forward_cuda",
    "vllm/model_executor/layers/quantization/fp8.py", "Fp8LinearMethod.apply",
    "torch.compile", "CUDAGraphRunner", "vllm/config.py", "VllmConfig.compilation_config",
    "SamplingParams", "LogitsProcessor", "vllm/entrypoints/openai/serving_chat.py",
    "ToolParser.extract_tool_calls", "vllm/distributed/parallel_state.py",
    "get_tp_group()", "tests/v1/core/test_scheduler.py", "envs.VLLM_USE_V1",
    "max_num_batched_tokens", "enable_prefix_caching", "custom_ops=[\"all\"]",
    "len + 1", ">=", "<|tool_response>", "<think>", "mm_kwargs",
)  # fmt: skip

# Sentence parts. A sentence is OPENER + 1-3 BODY parts (+ a code ref) + CLOSER.
OPENERS = (
    "一是", "二是", "三是", "重点关注", "建议先看", "值得注意的是", "需要确认", "阅读时请留意",
    "核心收益在于", "最容易被忽略的是", "作者在描述中提到", "评审讨论里指出", "从设计上看",
    "如果你维护该模块，", "对于后续做性能优化的工程师，", "与旧实现相比，",
)  # fmt: skip
BODIES = (
    "把平台判定从隐式回落改成显式分支", "调用点的语义各不相同", "不要顺手统一比较运算符",
    "降序扫描改变了边界的含义", "断言降级为日志是刻意的", "失败请求要等到接受阶段才兜底",
    "契约目前只写在文档里", "抽取的辅助函数只包含纯索引与形状逻辑", "内核调用留在后端文件中",
    "删除前用仓库内引用检查确认没有使用者", "测试与源码注解需要同步改动", "旧符号消失后可能影响仓库外的依赖",
    "白名单被倒置为黑名单", "新特性默认流向新实现", "整除与守卫条件被重新整理",
    "分配路径多了一次拷贝", "缓存命中率在长上下文下明显提升", "调度器在抢占时会重新计算块数",
    "图捕获阶段的形状必须固定", "量化比例因子的布局与之前不同", "专家并行下的通信量减少了一半",
    "异步拷贝需要显式的固定内存缓冲区", "配置项的默认值悄悄变了", "错误信息现在包含请求编号",
    "多轮工具调用的边界声明仍不完整", "回合边界由语法派生而不是手写分支", "惰性标记与真正打开推理被区分开",
    "基准数据只覆盖了单卡场景", "文档与实现之间仍有一处分歧", "这一改动同时修复了关闭思考时的行为",
)  # fmt: skip
CLOSERS = ("。", "；", "，这一点值得单独核对。", "，建议补上针对性用例。", "，代价是多一次同步。")

TITLE_HEADS = (
    "重构", "统一", "删除", "修复", "拆分", "迁移", "优化", "引入", "弃用", "清理", "加速", "简化",
)  # fmt: skip
TITLE_OBJECTS = (
    "调度器的抢占路径", "结构化输出与投机解码的约束起点", "多模态 LoRA token 计数钩子", "h2d 异步复制工具",
    "TPU 版 InputBatch 死代码", "kpool 索引器后端", "前缀缓存的块分配", "FP8 线性层的比例因子",
    "MoE 专家并行通信", "推理结束判定", "工具调用解析器", "CUDA 图捕获", "张量并行组初始化",
    "采样参数校验", "OpenAI 兼容接口的流式输出", "ROCm 注意力后端", "KV 缓存回收策略",
)  # fmt: skip
TITLE_TAILS = (
    "并拆分后端", "，覆盖 AMD 与量化算子路径", "，20+ 模型迁移到新接口", "，删除多模型 override",
    "并统一 ngram 分支", "以减少一次拷贝", "，修复长上下文回归", "并补齐测试", "，行为保持不变",
    "为显式配置", "",
)  # fmt: skip


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def sentence(self, refs: list[str]) -> str:
        rng = self.rng
        parts = [rng.choice(OPENERS)]
        for n, body in enumerate(rng.sample(BODIES, rng.choices((1, 2, 3), (50, 35, 15))[0])):
            if n:
                parts.append("，")
            parts.append(body)
            if rng.random() < 0.45:
                ref = rng.choice(CODE_REFS)
                refs.append(ref)
                parts.append(f"（见 `{ref}`）" if rng.random() < 0.5 else f"，涉及 `{ref}` ")
        parts.append(rng.choice(CLOSERS))
        return "".join(parts).replace(" ，", "，").replace(" 。", "。").replace(" ；", "；")

    def title(self) -> str:
        rng = self.rng
        for _ in range(100):
            head, obj = rng.choice(TITLE_HEADS), rng.choice(TITLE_OBJECTS)
            # A space between Chinese and Latin, as the digests write it.
            title = head + (" " if obj[0].isascii() else "") + obj + rng.choice(TITLE_TAILS)
            if 15 <= len(title) <= 35:
                return title
        return (title + "并补齐测试与文档说明")[:35]  # pragma: no cover - pools always fit

    def item(self) -> dict[str, object] | str:
        refs: list[str] = []
        text = self.sentence(refs)
        if refs and self.rng.random() < 0.8:
            return {"text": text, "refs": list(dict.fromkeys(refs))}
        return text

    def review(self, pr: int) -> dict[str, object]:
        rng = self.rng
        verdict = rng.choices(VERDICTS, VERDICT_WEIGHTS)[0]
        review: dict[str, object] = {
            "title": self.title(),
            "pr": pr,
            "tags": rng.sample(TAGS, rng.randint(2, 4)),
            "verdict": verdict,
        }
        if rng.random() < 0.5:
            review["date"] = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        if rng.random() < 0.5:
            review["verdict_note"] = rng.choice(VERDICT_NOTES[verdict])
        review["summary"] = "".join(self.sentence([]) for _ in range(rng.randint(1, 3)))
        for section, low, high in (
            ("focus", 3, 6),
            ("read_order", 0, 4),
            ("actions", 0, 3),
            ("caveats", 0, 3),
        ):
            count = rng.randint(low, high)
            if count:
                review[section] = [self.item() for _ in range(count)]
        return review


def _block(text: str, indent: str) -> str:
    """A YAML literal block scalar, as the bundled digest writes text."""
    return "|-\n" + "".join(f"{indent}{line}\n" for line in text.split("\n"))


def _flow(values: list[str]) -> str:
    # A JSON string is a valid YAML double-quoted scalar.
    return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in values) + "]"


def render_page(repo: str, reviews: list[dict[str, object]]) -> str:
    out = [f"# {repo} · synthetic digest (bench/make_corpus.py)\n", f"repo: {repo}\n", "entries:\n"]
    for n, review in enumerate(reviews):
        if n:
            out.append("\n")
        first = True
        for key, value in review.items():
            lead = "  - " if first else "    "
            first = False
            if key in ("title", "summary", "verdict_note"):
                out.append(f"{lead}{key}: {_block(str(value), ' ' * 6)}")
            elif key == "tags":
                out.append(f"{lead}tags: [{', '.join(value)}]\n")  # type: ignore[arg-type]
            elif key in ("pr", "verdict"):
                out.append(f"{lead}{key}: {value}\n")
            elif key == "date":
                out.append(f'{lead}date: "{value}"\n')
            else:
                out.append(f"{lead}{key}:\n")
                for item in value:  # type: ignore[attr-defined]
                    if isinstance(item, str):
                        out.append(f"      - {_block(item, ' ' * 8)}")
                    else:
                        out.append(f"      - text: {_block(item['text'], ' ' * 10)}")
                        out.append(f"        refs: {_flow(item['refs'])}\n")
    return "".join(out)


def generate(out_dir: Path, reviews: int, seed: int = 0, per_file: int = 10) -> list[Path]:
    """Write the corpus; returns the files written, in order."""
    gen = Generator(seed)
    prs = gen.rng.sample(range(1000, 1000 + reviews * 20), reviews)
    written: list[Path] = []
    for index, start in enumerate(range(0, reviews, per_file)):
        repo = REPOS[index % len(REPOS)]
        page = [gen.review(pr) for pr in prs[start : start + per_file]]
        folder = out_dir / f"part-{index // FILES_PER_DIR:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"digest-{index:05d}.yaml"
        path.write_text(render_page(repo, page), encoding="utf-8")
        written.append(path)
    return written


def check(out_dir: Path, expected: int) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tui.core.model import Library
    from tui.load.parse import load_paths

    result = load_paths([out_dir])
    library = Library.build(result.files, result.problems)
    problems = library.all_problems()
    for problem in problems[:20]:
        print(problem, file=sys.stderr)
    count = len(library.reviews)
    print(f"check: {count} reviews in {len(result.files)} files, {len(problems)} problems", file=sys.stderr)
    return 0 if not problems and count == expected else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", type=Path, metavar="OUT_DIR")
    parser.add_argument("--reviews", type=int, required=True, metavar="N")
    parser.add_argument("--seed", type=int, default=0, metavar="S")
    parser.add_argument("--per-file", type=int, default=10, metavar="K")
    parser.add_argument("--check", action="store_true", help="load the corpus back; fail on any problem")
    args = parser.parse_args(argv)
    if args.reviews < 1 or args.per_file < 1:
        parser.error("--reviews and --per-file must be at least 1")
    if args.out_dir.exists() and any(args.out_dir.iterdir()):
        parser.error(f"{args.out_dir} is not empty")
    started = time.perf_counter()
    files = generate(args.out_dir, args.reviews, args.seed, args.per_file)
    size = sum(p.stat().st_size for p in files)
    print(
        f"wrote {args.reviews} reviews in {len(files)} files ({size / 1e6:.1f} MB) "
        f"to {args.out_dir} in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return check(args.out_dir, args.reviews) if args.check else 0


if __name__ == "__main__":
    sys.exit(main())
