/**
 * The methodology page: docs/methodology.md, the one text that says how every live figure is
 * computed, rendered as written (a Vite `?raw` import, react-markdown with GFM). Every heading
 * carries the id a forge gives it (rehype-slug), so `/methodology#per-comparison-unit` here and
 * `docs/methodology.md#per-comparison-unit` in the repository land on the same rule; each `##`
 * becomes a <section>. The page adds only what the open dataset alone can say or show: live
 * examples of the marks the text describes, the validation settings its manifest records, and the
 * notices of its CMS reference files (`GET /api/coverage`). The code that applies the rules:
 * scripts/convert (medians, benchmarks, validation) and workers/api (the rest).
 */
import { createContext, Fragment, useContext, useEffect, type ReactElement } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeSlug from 'rehype-slug';
import remarkGfm from 'remark-gfm';
import { useLocation } from 'react-router-dom';
import methodology from '../../docs/methodology.md?raw';
import type { CoverageResult } from '../../contract/api';
import { formatCount } from '../../contract/rules/format';
import { ThinMark, UnitBadges } from '../live/components/UnitParts';
import { useApi, type ApiLoad } from '../live/components/use-api';
import { ReferenceNotices } from './ReferenceNotices';
import './Methodology.css';

/** The marks the text describes, as the screens draw them: each after the first paragraph under its heading's id. */
const EXAMPLES: Readonly<Record<string, () => ReactElement>> = {
  'the-comparison-unit': () => <UnitBadges unit={{ billing_class: 'professional', component: '26', setting: 'facility' }} />,
  'low-confidence-thin-units': () => <ThinMark reason="reference price rests on 1 provider" />,
};

/** The smallest view of a hast node this page's plugin needs. */
interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

const isElement = (node: HastNode, tagName: string) => node.type === 'element' && node.tagName === tagName;

/**
 * Rehype plugin: wraps each `h2` and what follows it in a <section> labelled by the heading, gives
 * the paragraphs before the first `h2` the lead's look, and leaves a <figure data-example> for EXAMPLES.
 */
function rehypeSections() {
  return (tree: HastNode): void => {
    const out: HastNode[] = [];
    let section: HastNode[] | null = null;
    let example: string | null = null;
    for (const node of tree.children ?? []) {
      if (isElement(node, 'h2')) {
        section = [];
        out.push({ type: 'element', tagName: 'section', properties: { ariaLabelledBy: node.properties?.id }, children: section });
      }
      if (section === null) {
        if (isElement(node, 'p')) node.properties = { ...node.properties, className: ['methodology-lead'] };
        out.push(node);
        continue;
      }
      section.push(node);
      if (isElement(node, 'h2') || isElement(node, 'h3')) {
        const id = String(node.properties?.id ?? '');
        example = id in EXAMPLES ? id : null;
      } else if (example !== null && isElement(node, 'p')) {
        section.push({ type: 'element', tagName: 'figure', properties: { dataExample: example }, children: [] });
        example = null;
      }
    }
    tree.children = out;
  };
}

const CoverageContext = createContext<ApiLoad<CoverageResult> | null>(null);

/** The validation settings the open dataset was converted with (manifest `validation`), under the defaults' table. */
function DatasetSettings(): ReactElement {
  const coverage = useContext(CoverageContext);
  const v = coverage?.data?.validation;
  if (!v) {
    return <p className="muted">{coverage?.status === 'error' ? 'No dataset is open: its settings cannot be read.' : 'Loading the settings of the open dataset...'}</p>;
  }
  const n = (x: number) => String(Number(x.toPrecision(6)));
  const used: Array<[string, string]> = [
    ['min_ratio', n(v.min_ratio)],
    ['max_ratio', n(v.max_ratio)],
    ['source_min_ratio', n(v.source_min_ratio)],
    ['outlier_factor', n(v.outlier_factor)],
    ['min_providers', formatCount(v.min_providers)],
  ];
  return (
    <p data-testid="methodology-dataset-settings">
      {'The open dataset was converted with '}
      {used.map(([key, value], i) => <Fragment key={key}>{i > 0 ? ', ' : ''}<code>{key}</code>{` ${value}`}</Fragment>)}.
    </p>
  );
}

const COMPONENTS: Components = {
  section: ({ node: _node, children, ...props }) => (
    <section {...props}>
      {children}
      {props['aria-labelledby'] === 'validation' && <DatasetSettings />}
    </section>
  ),
  figure: ({ node }) => {
    const Example = EXAMPLES[String(node?.properties.dataExample ?? '')];
    return Example ? <figure className="methodology-example">Example: <Example /></figure> : null;
  },
};

/** Rendered once: the text never changes while the app runs. */
const TEXT = (
  <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSlug, rehypeSections]} components={COMPONENTS} disallowedElements={['img']}>
    {methodology}
  </Markdown>
);

export function Methodology(): ReactElement {
  const { hash } = useLocation();
  const coverage = useApi('GET /api/coverage', {});
  // A link from a screen's figure (`/methodology#validation`) lands on its rule: the links use the
  // heading ids rehype-slug gives (test/ui/methodology-links.test.ts checks each against the text).
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
  return (
    <article className="methodology">
      <CoverageContext.Provider value={coverage}>{TEXT}</CoverageContext.Provider>
      <section aria-labelledby="notices">
        <h2 id="notices">CMS reference files and their notices</h2>
        <ReferenceNotices coverage={coverage.data} failed={coverage.status === 'error'} />
      </section>
    </article>
  );
}
