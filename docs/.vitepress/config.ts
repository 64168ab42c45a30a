// The site's configuration lives in tools/docs-site (where VitePress is installed).
export { default } from '../../tools/docs-site/src/site-config.ts';
