import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** Opens the Knowledge tab's Add menu and picks `item` (Files, Website, Written answer, Reference document). */
export async function chooseFromAddMenu(user: UserEvent, item: RegExp): Promise<void> {
  await user.click(screen.getByRole('button', { name: 'Add' }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}
