import { configDefaults, mergeConfig } from 'vitest/config';
import { workspaceProject } from '../../vitest.shared.js';

// template/ is the example, copied by the build; its tests run where the example lives.
export default mergeConfig(workspaceProject('create-connector'), {
  test: { exclude: [...configDefaults.exclude, 'template/**'] },
});
