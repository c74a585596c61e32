// The site's theme: VitePress's default theme, with the landing page's first commands (./HeroInstall.vue), the
// diagrams rendered (./mermaid.ts) and the widths and code blocks of ./custom.css.
import DefaultTheme from 'vitepress/theme';
import { h, nextTick, onMounted, watch } from 'vue';
import { useRoute, type Theme } from 'vitepress';
import HeroInstall from './HeroInstall.vue';
import { renderDiagrams } from './mermaid';
import './custom.css';

export default {
  extends: DefaultTheme,
  Layout: () => h(DefaultTheme.Layout, null, { 'home-hero-image': () => h(HeroInstall) }),
  setup() {
    const route = useRoute();
    onMounted(() => void renderDiagrams());
    watch(
      () => route.path,
      () => nextTick(() => void renderDiagrams()),
    );
  },
} satisfies Theme;
