/** Generated golden sets: LLM-proposed questions whose excerpts align to source spans (marked generated). */
export { generateGoldenSet, keepsAlignment, NEAR_EXACT, sampleSections, GOLDEN_TEMPLATE, type GenerateOptions, type GenerateReport, type GeneratedQuestion } from './generate';
